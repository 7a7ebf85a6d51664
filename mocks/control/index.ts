import { createHash, timingSafeEqual } from 'node:crypto';
import type { ValidateFunction } from 'ajv';
import { jsonResponse, type Ctx } from '../context';
import { ApiError } from '../errors';
import { CREATED_PAGE, parseCreatedCursor, UnstorableFixtureError, type Store } from '../store';
import { CONTROL_LIMITS } from '../limits';
import { decodeJson, readRequestBody } from '../stages/read-body';
import type { RouteTable } from '../stages/route/table';
import { parseFixtureText, readFixtures, type ParsedFixtures } from './fixtures';
import { updateSettings } from './update-settings';
import type { RuntimeSettings } from './settings';
import type { MockResponse } from '../types';

/** The control plane's path prefix: outside the API's base path, so it can never shadow an operation. */
export const CONTROL_PATH = '/__mock';

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
  /** The time a body may take to arrive: the API's (MOCK_BODY_TIMEOUT_MS), the same on every mount. */
  bodyTimeoutMs?: number;
};

/**
 * `/__mock/…`: what a frontend test suite needs to steer the mock between tests — reset, fixtures, the list of
 * what was created, and settings changed at run time. Answers JSON; errors in the contract's error shape.
 */
export function createControlPlane(deps: ControlDeps) {
  const initial: RuntimeSettings = structuredClone(deps.settings);
  // The shared bounded reader, with the control plane's byte bound (fixture files may be larger than API bodies).
  const timeoutMs = deps.bodyTimeoutMs ?? CONTROL_LIMITS.timeoutMs;
  const readBody = (req: Ctx): Promise<Buffer> => readRequestBody(req, { ...CONTROL_LIMITS, timeoutMs });
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

  type Serve = (req: Ctx, url: { searchParams: URLSearchParams }) => Promise<MockResponse> | MockResponse;
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
        const value = parseFixtureText((await readBody(req)).toString('utf8'), CONTROL_LIMITS);
        return jsonResponse(200, { loaded: (await loadFixtures(value)).counts });
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
      PATCH: async (req) =>
        jsonResponse(200, {
          settings: updateSettings(deps, resolveWorkspace, parseJsonBody(await readBody(req)) ?? {}),
        }),
    },
  };
  table['/settings'].PUT = table['/settings'].PATCH;
  const routes: RouteTable<Serve> = new Map(
    Object.entries(table).map(([path, methods]) => [`${CONTROL_PATH}${path}`, new Map(Object.entries(methods))]),
  );

  const authorised = (req: { headers: Record<string, string> }): boolean => {
    if (!deps.adminToken) return true;
    const given = req.headers['x-mock-admin-token'] ?? /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const a = Buffer.from(String(given ?? ''));
    const b = Buffer.from(deps.adminToken);
    return a.length === b.length && timingSafeEqual(a, b);
  };

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
      if (await deps.store.markOnce(`start-fixtures:${createHash('sha256').update(text).digest('hex')}`)) {
        await deps.store.applyFixtures(fixtures.workspaces);
      }
      return (startFixtures = fixtures);
    },
    /** The endpoints by path (with the prefix) and method; the front door's control mount serves them. */
    routes,
    /** Whether the request carries the admin token (always, when none is configured). */
    authorised,
  };
}

export type ControlPlane = ReturnType<typeof createControlPlane>;

function parseJsonBody(raw: Buffer): unknown {
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
