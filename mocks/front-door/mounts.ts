import { ApiError } from '../errors';
import { compose, jsonResponse, withRequest, type Stage } from '../context';
import type { ControlPlane } from '../control';
import { CONTROL_PATH } from '../control';
import type { AuthServer } from '../oauth';
import { AUTH_BODY_LIMITS } from '../limits';
import { authRateLimitBucket, oauthErrorDialect } from '../oauth/rate-limit';
import { createPipeline, type PipelineDeps } from '../pipeline';
import { authenticate } from '../stages/authenticate';
import { API_CORS, AUTH_CORS, answerPreflight, type CorsPolicy } from '../stages/cors';
import { finishResponse } from '../stages/finish';
import { authRateLimit, rateLimit } from '../stages/rate-limit';
import { loadSteering } from '../stages/steering';
import { requirePreflightedWrite } from '../control/preflighted';
import { readRequestBody } from '../stages/read-body';
import { requireCredential } from '../stages/require-credential';
import { methodNotAllowed } from '../stages/route';
import { findInTable } from '../stages/route/table';
import type { Store } from '../store';
import type { Mount } from '.';

export const DOWNLOADS_PATH = '/downloads/';
/** Where the OAuth server's endpoints are by default (`<origin>/auth/…`). */
const AUTH_PATH = '/auth/';

export type MountDeps = {
  basePath: string;
  api: PipelineDeps;
  control: ControlPlane;
  /** The OAuth server (created on first use: its issuer needs the listen address); undefined without one. */
  auth: () => AuthServer | undefined;
  /** What `/auth` answers where there is no OAuth server. */
  authMissing: string;
  authLimiter: PipelineDeps['limiter'];
  store: Store;
  /** The control plane's CORS policy (configured origins; loopback by default). */
  controlCors: CorsPolicy;
};

/**
 * The mount table: every entry point of the server, each a short list of the shared stages (finish first: the
 * error shape, the rate-limit and CORS headers) and then its own small handlers. The fallback answers 404 with or
 * without a credential: nothing outside the API is guarded.
 *
 * | mount       | paths                              | counted in                         | CORS           |
 * |-------------|------------------------------------|------------------------------------|----------------|
 * | `api`       | `/v1/…`                            | workspace (else client address)    | API_CORS       |
 * | `downloads` | `/downloads/<id>` (GET, HEAD)      | workspace (else client address)    | API_CORS       |
 * | `control`   | `/__mock`, `/__mock/…`             | not counted (reports the address)  | controlCors    |
 * | `auth`      | the issuer's endpoints (`/auth/…`) | `auth-address:<ip>`                | AUTH_CORS      |
 * | fallback    | anything else (`/` too)            | workspace (else client address)    | API_CORS → 404 |
 */
export function createMounts(deps: MountDeps): { mounts: Mount[]; fallback: Mount } {
  const base = deps.basePath;
  const mounts: Mount[] = [
    {
      name: 'api',
      matches: (path) => path === base || path.startsWith(`${base}/`),
      within: (path) => path.slice(base.length) || '/',
      pipeline: createPipeline(deps.api),
    },
    { name: 'downloads', matches: (path) => path.startsWith(DOWNLOADS_PATH), pipeline: downloadsPipeline(deps) },
    {
      name: 'control',
      matches: (path) => path === CONTROL_PATH || path.startsWith(`${CONTROL_PATH}/`),
      pipeline: controlPipeline(deps),
    },
    {
      name: 'auth',
      // Without an OAuth server its paths still reach this mount, which says there is none (authMissing).
      matches: (path) => deps.auth()?.routes.has(path) ?? path.startsWith(AUTH_PATH),
      pipeline: authPipeline(deps),
    },
  ];
  return { mounts, fallback: { name: 'fallback', matches: () => true, pipeline: createPipeline(deps.api, base) } };
}

/**
 * Run downloads: the owning workspace's credential is required (401 without one, 404 for another workspace's
 * export), counted in its bucket, answered with the rate-limit headers and the error shape like the API.
 */
function downloadsPipeline(deps: MountDeps) {
  return compose([
    finishResponse({ limiter: deps.api.limiter, cors: API_CORS }),
    authenticate(deps.api),
    loadSteering(deps.api),
    answerPreflight(API_CORS),
    rateLimit({ limiter: deps.api.limiter }),
    requireCredential(),
    async (ctx) => {
      const id = ctx.req.path.slice(DOWNLOADS_PATH.length);
      if (ctx.req.method !== 'GET' && ctx.req.method !== 'HEAD')
        throw methodNotAllowed(ctx.req.method, ctx.req.path, ['GET', 'HEAD']);
      await readRequestBody(ctx, deps.api.bodyLimits);
      const caller = ctx.caller?.workspaceUuid;
      const download = caller === undefined ? undefined : await deps.store.downloadAnswer(caller, id);
      // Its keys are the workspace's own; the text's owner is checked too (defence in depth).
      if (!download || download.workspaceUuid !== caller)
        throw new ApiError(404, 'not_found', 'No such download for this workspace (downloads live one hour).');
      // The kept text as it is (never parsed here), written in chunks by serialise.
      const response = jsonResponse(200, undefined, {
        'content-disposition': `attachment; filename="runs-${id}.json"`,
        'content-type': 'application/json',
      });
      return { ...response, text: download.text };
    },
  ]);
}

/**
 * `/__mock`: not counted (a test suite at its quota can still reset), but every answer reports the client
 * address's bucket; 404 for an unknown endpoint, 401 without a credential (a tenant's token steers its own
 * workspace, the admin token every workspace: `mocks/control/tenancy.ts`), 405 with Allow, 415 for a write
 * without a JSON body (one a browser sends without a preflight). Bodies are read by each endpoint through the
 * shared bounded reader (CONTROL_LIMITS).
 */
function controlPipeline(deps: MountDeps) {
  const { routes, identify } = deps.control;
  const serveControl: Stage = async (ctx) => {
    const { path, method } = ctx.req;
    const who = await identify(ctx.req.headers);
    const known = routes.has(path) || routes.has(path.replace(/\/$/, ''));
    if (!known) throw new ApiError(404, 'not_found', `No control endpoint at ${path}; GET ${CONTROL_PATH} lists them.`);
    const serve = findInTable(routes, method, path, () => new ApiError(404, 'not_found', 'No control endpoint.'));
    requirePreflightedWrite(method, ctx.req.headers, { yaml: path.replace(/\/$/, '') === `${CONTROL_PATH}/fixtures` });
    const response = await serve(ctx, { searchParams: ctx.req.query }, who);
    // A body the endpoint did not read (a GET with one) is drained within the same bounds, or the connection closes.
    if (!ctx.bodyRead) await readRequestBody(ctx, deps.api.bodyLimits).catch(() => undefined);
    return response;
  };
  return compose([
    finishResponse({ limiter: deps.api.limiter, cors: deps.controlCors }),
    answerPreflight(deps.controlCors),
    serveControl,
  ]);
}

/**
 * The OAuth endpoints: counted per client address in buckets of their own; errors in the contract's shape with
 * OAuth's `error` and `error_description`; form bodies through the shared bounded reader (AUTH_BODY_LIMITS).
 */
function authPipeline(deps: MountDeps) {
  const serveAuth: Stage = async (ctx) => {
    const server = deps.auth();
    if (!server) throw new ApiError(404, 'not_found', deps.authMissing);
    const serve = findInTable(
      server.routes,
      ctx.req.method,
      ctx.req.path,
      () => new ApiError(404, 'not_found', `No OAuth endpoint at ${ctx.req.path}.`),
    );
    const rawBody = await readRequestBody(ctx, { ...AUTH_BODY_LIMITS, timeoutMs: deps.api.bodyLimits.timeoutMs });
    ctx.req = withRequest(ctx.req, { rawBody });
    return serve(ctx.req);
  };
  return compose([
    finishResponse({
      limiter: deps.authLimiter,
      cors: AUTH_CORS,
      bucket: authRateLimitBucket,
      dialect: oauthErrorDialect,
      limit: authRateLimit,
    }),
    loadSteering({ steering: () => deps.api.steering(undefined) }),
    answerPreflight(AUTH_CORS),
    rateLimit({ limiter: deps.authLimiter, bucket: authRateLimitBucket, limit: authRateLimit }),
    serveAuth,
  ]);
}
