import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ValidateFunction } from 'ajv';
import { jsonResponse } from '../context';
import { ApiError } from '../errors';
import { CREATED_PAGE, parseCreatedCursor, UnstorableFixtureError, type Store } from '../store';
import { renderError } from '../stages/finish';
import { serialise } from '../stages/serialise';
import { parseFixtureText, readFixtures, type ParsedFixtures } from './fixtures';
import { applySettingsPatch, checkSettingsPatch, type RuntimeSettings, type SettingsPatch } from './settings';
import type { MockResponse } from '../types';

/** The control plane's path prefix: outside the API's base path, so it can never shadow an operation. */
export const CONTROL_PATH = '/__mock';

/** Fixture files may be larger than API bodies, but not unbounded. */
const MAX_CONTROL_BODY_BYTES = 16 * 1024 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type ControlDeps = {
  /** When set, every control request needs `Authorization: Bearer <adminToken>` (or `X-Mock-Admin-Token`). */
  adminToken?: string;
  store: Store;
  /** The live settings; the pipeline reads them on every request. */
  settings: RuntimeSettings;
  tokens: Record<string, string>;
  operationIds: string[];
  schemaAt: (pointer: string) => ValidateFunction;
  now: () => number;
  /** Forget idempotency keys and rate-limit windows, of one workspace or all. */
  clearIdempotency: (workspaceUuid?: string) => Promise<void> | void;
  clearRateLimit: (workspaceUuid?: string) => Promise<void> | void;
};

const CORS: Record<string, string> = { 'access-control-allow-origin': '*' };

/**
 * `/__mock/…`: what a frontend test suite needs to steer the mock between tests — reset, fixtures, the list of
 * what was created, and settings changed at run time. Answers JSON; errors in the contract's error shape.
 */
export function createControlPlane(deps: ControlDeps) {
  const initial: RuntimeSettings = structuredClone(deps.settings);
  let startFixtures: ParsedFixtures | undefined;

  const resolveWorkspace = (ref: string): string | undefined =>
    // dictionary-lookup: guarded by Object.hasOwn
    Object.hasOwn(deps.tokens, ref) ? deps.tokens[ref] : UUID.test(ref) ? ref.toLowerCase() : undefined;
  const workspaceOf = (ref: unknown): string | undefined => {
    if (ref === undefined || ref === null || ref === '') return undefined;
    const uuid = typeof ref === 'string' ? resolveWorkspace(ref) : undefined;
    if (!uuid)
      throw new ApiError(
        400,
        'unknown_workspace',
        `workspace: ${JSON.stringify(ref)} is neither a token of the mock nor a workspace uuid.`,
      );
    return uuid;
  };

  const loadFixtures = async (document: unknown): Promise<ParsedFixtures> => {
    const { fixtures, problems } = readFixtures(document, { schemaAt: deps.schemaAt, resolveWorkspace, now: deps.now });
    if (!fixtures)
      throw new ApiError(400, 'invalid_fixtures', `The fixtures do not match the contract: ${problems[0]}`, {
        problems,
      });
    await deps.store.applyFixtures(fixtures.workspaces).catch((error: unknown) => {
      if (!(error instanceof UnstorableFixtureError)) throw error;
      throw new ApiError(400, 'invalid_fixtures', error.message, { problems: [error.message] });
    });
    return fixtures;
  };
  /** Workspaces the listing looks at: those of the mock's tokens and any a fixture named. */
  const knownWorkspaces = () => [
    ...new Set([...Object.values(deps.tokens), ...(startFixtures?.workspaces.keys() ?? [])]),
  ];

  const reset = async (workspaceUuid?: string) => {
    await deps.store.reset(workspaceUuid);
    await deps.clearIdempotency(workspaceUuid);
    await deps.clearRateLimit(workspaceUuid);
    if (workspaceUuid === undefined) {
      Object.assign(deps.settings, structuredClone(initial));
    } else {
      // dictionary-lookup: a workspace uuid resolved by workspaceOf
      delete deps.settings.workspaces[workspaceUuid];
      deps.settings.faults = deps.settings.faults.filter((rule) => rule.workspace !== workspaceUuid);
    }
    const again = [...(startFixtures?.workspaces ?? [])].filter(([uuid]) => (workspaceUuid ?? uuid) === uuid);
    await deps.store.applyFixtures(new Map(again));
  };

  const updateSettings = (patch: unknown): RuntimeSettings => {
    const problems = checkSettingsPatch(patch);
    const change = patch as SettingsPatch;
    const workspaces: Record<string, unknown> = {};
    for (const [ref, value] of Object.entries(change?.workspaces ?? {})) {
      const uuid = resolveWorkspace(ref);
      // dictionary-lookup: uuid is resolved (a token's workspace or a uuid)
      if (uuid) workspaces[uuid] = value;
      else problems.push(`settings.workspaces.${ref}: is neither a token of the mock nor a workspace uuid`);
    }
    const faults = (change?.faults ?? []).map((rule, i) => {
      if (rule.operation !== undefined && !deps.operationIds.includes(rule.operation)) {
        problems.push(
          `settings.faults.${i}.operation: no operation ${JSON.stringify(rule.operation)}; one of ${deps.operationIds.join(', ')}`,
        );
      }
      const workspace = rule.workspace === undefined ? undefined : resolveWorkspace(rule.workspace);
      if (rule.workspace !== undefined && !workspace)
        problems.push(`settings.faults.${i}.workspace: is neither a token of the mock nor a workspace uuid`);
      return { ...rule, share: rule.share ?? 1, ...(workspace ? { workspace } : {}) };
    });
    if (problems.length > 0)
      throw new ApiError(400, 'invalid_settings', `The settings were not changed: ${problems[0]}`, { problems });
    applySettingsPatch(deps.settings, {
      ...change,
      ...(change.workspaces ? { workspaces: workspaces as SettingsPatch['workspaces'] } : {}),
      ...(change.faults ? { faults } : {}),
    });
    return deps.settings;
  };

  type Serve = (req: IncomingMessage, url: URL) => Promise<MockResponse> | MockResponse;
  const table: Record<string, Record<string, Serve>> = {
    '': {
      GET: () =>
        jsonResponse(200, {
          endpoints: {
            'POST /__mock/reset':
              'reset state, idempotency keys, rate-limit windows and settings; body {"workspace": "<token or uuid>"} resets one workspace',
            'POST /__mock/fixtures':
              'load fixtures (JSON or YAML): {"workspaces": {"<token or uuid>": {"<collection>": [...]}}}',
            'GET /__mock/created': `what clients created since start or the last reset, a page at a time (?workspace=<token or uuid>&limit=1..${CREATED_PAGE.max}&cursor=<next of the previous page>)`,
            'GET /__mock/settings': 'the settings in force',
            'PATCH /__mock/settings':
              'change rateLimit, authRateLimit, latencyMs, runDurationMs, hangMs, workspaces.<ref>.{outcome,runDurationMs}, faults',
          },
        }),
    },
    '/reset': {
      POST: async (req, url) => {
        const body = parseJsonBody(await readBody(req));
        const workspaceUuid = workspaceOf(
          url.searchParams.get('workspace') ?? (body as { workspace?: unknown } | undefined)?.workspace,
        );
        await reset(workspaceUuid);
        return jsonResponse(200, { reset: workspaceUuid ?? 'all' });
      },
    },
    '/fixtures': {
      POST: async (req) => {
        const parsed = parseFixtureText((await readBody(req)).toString('utf8'));
        if (parsed.problem) throw new ApiError(400, 'invalid_fixtures', parsed.problem, { problems: [parsed.problem] });
        return jsonResponse(200, { loaded: (await loadFixtures(parsed.value)).counts });
      },
    },
    '/created': {
      GET: async (_req, url) => {
        const workspace = workspaceOf(url.searchParams.get('workspace'));
        const page = readCreatedPage(url.searchParams);
        const selection = workspace === undefined ? knownWorkspaces() : [workspace];
        return jsonResponse(200, await deps.store.listCreatedPage(selection, page));
      },
    },
    '/settings': {
      GET: () => jsonResponse(200, { settings: deps.settings }),
      PATCH: async (req) => jsonResponse(200, { settings: updateSettings(parseJsonBody(await readBody(req)) ?? {}) }),
    },
  };
  table['/settings'].PUT = table['/settings'].PATCH;
  const routes = new Map(Object.entries(table).map(([path, methods]) => [path, new Map(Object.entries(methods))]));

  const authorised = (req: IncomingMessage): boolean => {
    if (!deps.adminToken) return true;
    const given = req.headers['x-mock-admin-token'] ?? /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const a = Buffer.from(String(given ?? ''));
    const b = Buffer.from(deps.adminToken);
    return a.length === b.length && timingSafeEqual(a, b);
  };

  return {
    /** Start-up fixtures (MOCK_FIXTURES): loaded now, and again after every reset. */
    async loadStartFixtures(text: string, source: string): Promise<ParsedFixtures> {
      const parsed = parseFixtureText(text);
      if (parsed.problem) throw new Error(`${source}: ${parsed.problem}`);
      const { fixtures, problems } = readFixtures(parsed.value, {
        schemaAt: deps.schemaAt,
        resolveWorkspace,
        now: deps.now,
      });
      if (!fixtures) throw new Error(`${source}: the fixtures do not match the contract:\n  ${problems.join('\n  ')}`);
      // Replicas sharing one store apply the same start fixtures once: a replica (re)starting later must not
      // replace what clients created meanwhile.
      if (await deps.store.markOnce(`start-fixtures:${createHash('sha256').update(text).digest('hex')}`)) {
        await deps.store.applyFixtures(fixtures.workspaces);
      }
      return (startFixtures = fixtures);
    },
    /** Serves `/__mock` and everything under it; false for any other path. */
    async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
      if (url.pathname !== CONTROL_PATH && !url.pathname.startsWith(`${CONTROL_PATH}/`)) return false;
      const method = req.method ?? 'GET';
      let response: MockResponse;
      try {
        if (method === 'OPTIONS') {
          response = {
            status: 204,
            headers: {
              'access-control-allow-methods': 'GET, POST, PUT, PATCH, OPTIONS',
              'access-control-allow-headers':
                req.headers['access-control-request-headers'] ?? 'Authorization, Content-Type, X-Mock-Admin-Token',
              'access-control-max-age': '600',
            },
            body: undefined,
          };
        } else {
          const route = routes.get(url.pathname.slice(CONTROL_PATH.length).replace(/\/$/, ''));
          if (!route)
            throw new ApiError(
              404,
              'not_found',
              `No control endpoint at ${url.pathname}; GET ${CONTROL_PATH} lists them.`,
            );
          if (!authorised(req))
            throw new ApiError(
              401,
              'unauthorized',
              'The control plane needs the admin token (MOCK_ADMIN_TOKEN) as a Bearer token or in X-Mock-Admin-Token.',
            );
          const serve = route.get(method);
          const allowed = [...route.keys()].join(', ');
          if (!serve)
            throw new ApiError(
              405,
              'method_not_allowed',
              `${method} is not allowed here; use ${allowed}.`,
              {},
              { allow: allowed },
            );
          response = await serve(req, url);
        }
      } catch (error) {
        response = renderError(error);
      }
      if (!res.headersSent) serialise(res, { ...response, headers: { ...response.headers, ...CORS } }, method);
      return true;
    },
  };
}

export type ControlPlane = ReturnType<typeof createControlPlane>;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_CONTROL_BODY_BYTES)
      throw new ApiError(413, 'payload_too_large', `body: exceeds the limit of ${MAX_CONTROL_BODY_BYTES} bytes.`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function parseJsonBody(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ApiError(400, 'malformed_json', 'body: is not valid JSON.');
  }
}

/** `limit` and `cursor` of `GET /__mock/created`, or a 400 naming the one that is not valid. */
function readCreatedPage(params: URLSearchParams) {
  const limitText = params.get('limit');
  const limit = limitText === null ? undefined : Number(limitText);
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= CREATED_PAGE.max))
    throw new ApiError(400, 'invalid_request', `limit: must be an integer from 1 to ${CREATED_PAGE.max}.`);
  const cursorText = params.get('cursor');
  const cursor = cursorText === null ? undefined : parseCreatedCursor(cursorText);
  if (cursorText !== null && !cursor)
    throw new ApiError(400, 'invalid_request', 'cursor: is not the `next` of a previous page.');
  return { limit, cursor };
}
