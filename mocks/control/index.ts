import type { ValidateFunction } from 'ajv';
import { jsonResponse, type Ctx } from '../context';
import { ApiError } from '../errors';
import { CREATED_PAGE, parseCreatedCursor, UnstorableFixtureError, type Store } from '../store';
import { CONTROL_LIMITS } from '../limits';
import { decodeJson, readRequestBody } from '../stages/read-body';
import type { RouteTable } from '../stages/route/table';
import { parseFixtureText, readFixtures, type ParsedFixtures } from './fixtures';
import { updateSettings, viewSettings } from './update-settings';
import type { SettingsRepository } from '../store/repositories/settings';
import { tokenTable, type VerifyAccessToken } from '../stages/authenticate';
import { identifyController, requireAdmin, scopeOf, type Controller } from './tenancy';
import type { MockResponse } from '../types';
import type { UsageCounter } from './usage';
import { sha256, toHex, utf8Decode } from '../web/bytes';

/** The control plane's path prefix: outside the API's base path, so it can never shadow an operation. */
export const CONTROL_PATH = '/__mock';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type ControlDeps = {
  /** Steers every workspace and the defaults (`Authorization: Bearer <adminToken>` or `X-Mock-Admin-Token`). */
  adminToken?: string;
  store: Store;
  /** The settings, in the store: every replica reads them. */
  settings: SettingsRepository;
  tokens: Record<string, string>;
  /** A tenant may steer with an OAuth access token as well as with a token of the mock. */
  verifyAccessToken?: VerifyAccessToken;
  operationIds: string[];
  schemaAt: (pointer: string) => ValidateFunction;
  now: () => number;
  /** Forget idempotency keys and rate-limit windows, of one workspace or all. */
  clearIdempotency: (workspaceUuid?: string) => Promise<void> | void;
  clearRateLimit: (workspaceUuid?: string) => Promise<void> | void;
  /** The time a body may take to arrive: the API's (MOCK_BODY_TIMEOUT_MS), the same on every mount. */
  bodyTimeoutMs?: number;
  /** The count table of the API's answers (`GET /__mock/usage`); without it the endpoint answers 404. */
  usage?: Pick<UsageCounter, 'report' | 'reset'>;
};

/** What `GET /__mock` answers: the endpoints and who may steer what. */
const CONTROL_INDEX = {
  endpoints: {
    'POST /__mock/reset':
      'reset the caller\'s workspace: state, idempotency keys, rate-limit window and settings; the admin token resets every workspace, or the one named by {"workspace": "<token or uuid>"}',
    'POST /__mock/fixtures':
      'load fixtures (JSON or YAML) into the caller\'s workspace: {"workspaces": {"<its token or uuid>": {"<collection>": [...]}}}',
    'GET /__mock/created': `what the caller's workspace created since start or its last reset, a page at a time (?limit=1..${CREATED_PAGE.max}&cursor=<next of the previous page>; the admin token: every workspace, or ?workspace=<token or uuid>)`,
    'GET /__mock/usage':
      "what the API answered the caller's workspace (and requests without a credential) since start: operation x status x outcome counts, and the stated statuses and job outcomes never met (the admin token: every workspace, or ?workspace=<token or uuid>)",
    'POST /__mock/usage/reset': "count the caller's workspace's answers afresh (the admin token: every workspace's)",
    'GET /__mock/settings':
      "the settings steering the caller's workspace (the admin token: the defaults and every workspace's)",
    'PATCH /__mock/settings':
      "change the caller's workspace: rateLimit, latencyMs, runDurationMs, hangMs, outcome, faults; the admin token changes the defaults for everyone (and authRateLimit) and workspaces.<ref>.{outcome,runDurationMs}",
  },
  tenancy:
    "Authorization: Bearer <a token of the mock or an OAuth access token> steers that token's workspace only; the admin token (MOCK_ADMIN_TOKEN) steers every workspace. Writes need Content-Type: application/json (fixtures: JSON or YAML).",
};

/**
 * `/__mock/…`: what a frontend test suite needs to steer the mock between tests — reset, fixtures, the list of
 * what was created, and settings changed at run time. Answers JSON; errors in the contract's error shape.
 */
export function createControlPlane(deps: ControlDeps) {
  // The shared bounded reader, with the control plane's byte bound (fixture files may be larger than API bodies).
  const timeoutMs = deps.bodyTimeoutMs ?? CONTROL_LIMITS.timeoutMs;
  const readBody = (req: Ctx): Promise<Uint8Array> => readRequestBody(req, { ...CONTROL_LIMITS, timeoutMs });
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

  const loadFixtures = async (document: unknown, who: Controller): Promise<ParsedFixtures> => {
    const { fixtures, problems } = readFixtures(document, { schemaAt: deps.schemaAt, resolveWorkspace, now: deps.now });
    if (!fixtures)
      throw new ApiError(400, 'invalid_fixtures', `The fixtures do not match the contract: ${problems[0]}`, {
        problems,
      });
    for (const uuid of fixtures.workspaces.keys()) scopeOf(who, uuid, deps.adminToken);
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

  const reset = async (workspaceUuid: string | undefined, who: Controller) => {
    await deps.store.reset(workspaceUuid);
    await deps.clearIdempotency(workspaceUuid);
    await deps.clearRateLimit(workspaceUuid);
    if (workspaceUuid === undefined) await deps.settings.reset();
    else if (who.role === 'tenant') await deps.settings.save({ workspaces: { [workspaceUuid]: undefined } });
    else {
      // The admin's reset of one workspace also drops the defaults' fault rules aimed at it.
      const defaults = await deps.settings.defaults();
      const faults = defaults.faults.filter((rule) => rule.workspace !== workspaceUuid);
      await deps.settings.save({ defaults: { ...defaults, faults }, workspaces: { [workspaceUuid]: undefined } });
    }
    await deps.settings.settle();
    const again = [...(startFixtures?.workspaces ?? [])].filter(([uuid]) => (workspaceUuid ?? uuid) === uuid);
    await deps.store.applyFixtures(new Map(again));
  };

  type Serve = (
    req: Ctx,
    url: { searchParams: URLSearchParams },
    who: Controller,
  ) => Promise<MockResponse> | MockResponse;
  const settingsDeps = {
    settings: deps.settings,
    operationIds: deps.operationIds,
    adminToken: deps.adminToken,
    resolveWorkspace,
  };
  const table: Record<string, Record<string, Serve>> = {
    '': { GET: () => jsonResponse(200, CONTROL_INDEX) },
    '/reset': {
      POST: async (req, url, who) => {
        const body = parseJsonBody(await readBody(req)) as { workspace?: unknown; all?: unknown } | undefined;
        // `{"all": true}` asks for every workspace: the admin's reset (the admin's `{}` means the same).
        if (body?.all === true) requireAdmin(who, 'A reset of every workspace', deps.adminToken);
        const named = workspaceOf(url.searchParams.get('workspace') ?? body?.workspace);
        const workspaceUuid = scopeOf(who, named, deps.adminToken);
        await reset(workspaceUuid, who);
        return jsonResponse(200, { reset: workspaceUuid ?? 'all' });
      },
    },
    '/fixtures': {
      POST: async (req, _url, who) => {
        const value = parseFixtureText(utf8Decode(await readBody(req)), CONTROL_LIMITS);
        return jsonResponse(200, { loaded: (await loadFixtures(value, who)).counts });
      },
    },
    '/created': {
      GET: async (_req, url, who) => {
        const workspace = scopeOf(who, workspaceOf(url.searchParams.get('workspace')), deps.adminToken);
        const page = readCreatedPage(url.searchParams);
        const selection = workspace === undefined ? knownWorkspaces() : [workspace];
        return jsonResponse(200, await deps.store.listCreatedPage(selection, page));
      },
    },
    '/usage': {
      GET: (_req, url, who) => {
        const workspace = scopeOf(who, workspaceOf(url.searchParams.get('workspace')), deps.adminToken);
        return jsonResponse(200, { usage: usageOf().report(workspace) });
      },
    },
    '/usage/reset': {
      POST: async (req, url, who) => {
        const body = parseJsonBody(await readBody(req)) as { workspace?: unknown } | undefined;
        const workspace = scopeOf(
          who,
          workspaceOf(url.searchParams.get('workspace') ?? body?.workspace),
          deps.adminToken,
        );
        usageOf().reset(workspace);
        return jsonResponse(200, { reset: workspace ?? 'all' });
      },
    },
    '/settings': {
      GET: async (_req, _url, who) => jsonResponse(200, { settings: await viewSettings(settingsDeps, who) }),
      PATCH: async (req, _url, who) =>
        jsonResponse(200, {
          settings: await updateSettings(settingsDeps, who, parseJsonBody(await readBody(req)) ?? {}),
        }),
    },
  };
  table['/settings'].PUT = table['/settings'].PATCH;
  const routes: RouteTable<Serve> = new Map(
    Object.entries(table).map(([path, methods]) => [`${CONTROL_PATH}${path}`, new Map(Object.entries(methods))]),
  );

  function usageOf() {
    if (!deps.usage) throw new ApiError(404, 'not_found', 'This mock keeps no usage counts.');
    return deps.usage;
  }
  const authenticateDeps = { tokens: tokenTable(deps.tokens), verifyAccessToken: deps.verifyAccessToken };

  return {
    /** Start-up fixtures (MOCK_FIXTURES): loaded now, and again after every reset. */
    async loadStartFixtures(text: string, source: string): Promise<ParsedFixtures> {
      let value: unknown;
      try {
        value = parseFixtureText(text, CONTROL_LIMITS);
      } catch (error) {
        throw new Error(`${source}: ${(error as Error).message}`);
      }
      const { fixtures, problems } = readFixtures(value, {
        schemaAt: deps.schemaAt,
        resolveWorkspace,
        now: deps.now,
      });
      if (!fixtures) throw new Error(`${source}: the fixtures do not match the contract:\n  ${problems.join('\n  ')}`);
      // Replicas sharing one store apply the same start fixtures once: a replica (re)starting later must not
      // replace what clients created meanwhile.
      if (await deps.store.markOnce(`start-fixtures:${toHex(sha256(text))}`)) {
        await deps.store.applyFixtures(fixtures.workspaces);
      }
      return (startFixtures = fixtures);
    },
    /** The endpoints by path (with the prefix) and method; the front door's control mount serves them. */
    routes,
    /** Who steers with this request: the admin, or a tenant (its workspace); 401 without a known credential. */
    identify: (headers: Record<string, string>): Promise<Controller> =>
      identifyController(headers, { ...authenticateDeps, adminToken: deps.adminToken }),
  };
}

export type ControlPlane = ReturnType<typeof createControlPlane>;

function parseJsonBody(raw: Uint8Array): unknown {
  return raw.length === 0 ? undefined : decodeJson(raw, CONTROL_LIMITS);
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
