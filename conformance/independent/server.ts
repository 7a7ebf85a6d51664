/**
 * An independent implementation of the Workspace Automation API on Express, written from the description alone: it
 * shares no code with mocks/ or with the suite, and wherever the description is open it takes the other
 * legitimate reading (its own `reason` strings, 404 for a malformed id in a path, `name` required, PUT as a full
 * replacement, a sliding-window limiter, a relative `Location`, 201 for a created MCP server, its own page sizes
 * and orderings, extra fields on open objects, no `retryAfter` in a 429 body). In memory; `readings` switches a
 * point back to the contract's own reading and `mutations` breaks one stated rule (the mutation harness).
 */
import { randomUUID, createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js';
import { readQuery, UUID, validateField, type Field, type Problem, type ValidateOptions } from './validate';

/** The open points, each with the reading this server takes by default and the contract's reading as the other. */
export type Readings = {
  malformedPathId: 404 | 400;
  requireMcpName: boolean;
  putReplaces: boolean;
  limiter: 'sliding' | 'fixed';
  location: 'relative' | 'absolute';
  mcpCreatedStatus: 200 | 201;
  retryAfterInBody: boolean;
  extraFields: boolean;
  pageSize: number;
};

export const DEFAULT_READINGS: Readings = {
  malformedPathId: 404,
  requireMcpName: true,
  putReplaces: true,
  limiter: 'sliding',
  location: 'relative',
  mcpCreatedStatus: 201,
  retryAfterInBody: false,
  extraFields: true,
  pageSize: 25,
};

export type IndependentOptions = {
  rateLimit?: number;
  windowSeconds?: number;
  runDurationMs?: number;
  readings?: Partial<Readings>;
  /** Broken behaviours (hand-written mutant ids) and switched-off validation rules (`<op> <location>:<field>:<keyword>`). */
  mutations?: Iterable<string>;
};

export const TOKENS: Record<string, 'a' | 'b'> = { 'indie-token-a-7Qx2': 'a', 'indie-token-b-9Kp4': 'b' };
export const TOKEN_A = 'indie-token-a-7Qx2';
export const TOKEN_B = 'indie-token-b-9Kp4';

const REASONS = ['unsubscribed', 'bounced', 'complained', 'manual'];
const RUN_STATUSES = ['idle', 'pending', 'running', 'success', 'error', 'cancelling', 'cancelled', 'skipped'];
const TERMINAL = ['success', 'error', 'cancelled', 'skipped'];
const PROVIDERS = ['email', 'social-oauth2', 'enterprise-directory', 'single-sign-on', 'agent-identity'];
const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
const MAX_KEYS = 10_000;

type Run = {
  uuid: string;
  workspaceUuid: string;
  recordId: string | null;
  recordTitle: string | null;
  workflowUuid: string | null;
  batchUuid: string | null;
  createdAt: number;
  finishAt: number;
  cancelledAt?: number;
  status?: string;
};
type Batch = {
  uuid: string;
  workspaceUuid: string;
  workflowUuid: string | null;
  runs: string[];
  createdAt: number;
  seenTerminal?: boolean;
};
type Workspace = {
  uuid: string;
  suppressions: Array<Record<string, unknown>>;
  mcpServers: Map<string, Record<string, unknown>>;
  workflows: Map<string, Record<string, unknown>>;
  models: Map<string, Record<string, unknown>>;
  domains: Map<string, Record<string, unknown>>;
  envVars: Set<string>;
  allocations: Array<Record<string, unknown>>;
  recipes: Array<Record<string, unknown>>;
  settings: Record<string, unknown>;
  records: Array<Record<string, unknown>>;
};
type Stored = {
  fingerprint: string;
  done: boolean;
  expires: number;
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  waiters: Array<() => void>;
};

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

let sqlPromise: Promise<SqlJsStatic> | undefined;

export type RunningIndependent = { url: string; close(): Promise<void>; tokenA: string; tokenB: string };

export async function startIndependentServer(options: IndependentOptions = {}): Promise<RunningIndependent> {
  const SQL = await (sqlPromise ??= initSqlJs());
  const readings: Readings = { ...DEFAULT_READINGS, ...options.readings };
  const mutations = new Set(options.mutations ?? []);
  const broken = (id: string) => mutations.has(id);
  const limit = options.rateLimit ?? 600;
  const windowMs = (options.windowSeconds ?? 10) * 1000;
  const runDurationMs = options.runDurationMs ?? 700;
  const validation: ValidateOptions = {
    off: mutations,
    lengths: broken('length-in-utf16') ? 'utf16' : 'code-points',
    loose: new Set([...mutations].filter((m) => m.startsWith('loose ')).map((m) => m.slice('loose '.length))),
  };

  const runs = new Map<string, Run>();
  const workspaces = { a: seedWorkspace('a'), b: seedWorkspace('b') };
  // One finished run per workspace, of its first workflow, so the SQL endpoint can name a workflow.
  for (const ws of Object.values(workspaces)) {
    const uuid = randomUUID();
    const at = Date.now() - 3_600_000;
    runs.set(uuid, {
      uuid,
      workspaceUuid: ws.uuid,
      recordId: 'seed',
      recordTitle: 'Seeded run',
      workflowUuid: [...ws.workflows.keys()][0],
      batchUuid: null,
      createdAt: at,
      finishAt: at + 1000,
    });
  }
  const batches = new Map<string, Batch>();
  // Run exports by id: the owning workspace and the runs selected when it was made (the oldest forgotten past 1000).
  const exportFiles = new Map<string, { workspaceUuid: string; runs: string[] }>();
  const hits = new Map<string, number[]>();
  const keys = new Map<string, Stored>();
  // A broken SQL endpoint keeps one database for everybody and lets writes stay.
  let sharedDb: Database | undefined;
  const synced = new Set<string>();

  const app = express();
  app.disable('x-powered-by');
  // Express's own error handler prints stacks outside 'test'; its pages are what the framework mutants show.
  app.set('env', 'test');
  app.set('query parser', 'extended');

  // One operation broken for one rule (`op <rule> <METHOD> <path glob>`, the harness's mutants per matrix cell):
  // served without auth, without RateLimit-Remaining, with errors in another shape, marked deprecated, or one status
  // answered as another.
  const opBreaks = [...mutations]
    .filter((m) => m.startsWith('op '))
    .map((m) => {
      const [, rule, method, glob] = m.split(' ');
      return { rule, method, path: new RegExp(`^/v1${glob.split('*').join('[^/]+')}$`) };
    });
  if (opBreaks.length > 0)
    app.use((req, res, next) => {
      const rules = opBreaks.filter((b) => b.method === req.method && b.path.test(req.path)).map((b) => b.rule);
      if (rules.length === 0) return next();
      if (rules.includes('auth-required-401') && !callerOf(req.headers.authorization))
        req.headers.authorization = `Bearer ${TOKEN_A}`;
      if (rules.includes('bearer-refused')) delete req.headers.authorization;
      const json = res.json.bind(res);
      res.json = (body: unknown) => {
        if (rules.includes('ratelimit-headers-every-response')) res.removeHeader('RateLimit-Remaining');
        if (rules.includes('deprecation-sunset')) res.set('Deprecation', '@1700000000');
        if (rules.includes('error-shape') && res.statusCode >= 400 && body && typeof body === 'object') {
          const { errorMessage, ...rest } = body as Record<string, unknown>;
          return json({ ...rest, message: errorMessage });
        }
        const status = rules.find((rule) => rule === `status-${res.statusCode}`);
        if (status && res.statusCode < 300) {
          res.status(204).end();
          return res;
        }
        if (status) res.status(418);
        return json(body);
      };
      next();
    });

  // Rate limit first, so 401s and 404s carry the headers too; unknown callers share one anonymous bucket.
  app.use((req, res, next) => {
    const caller = callerOf(req.headers.authorization) ?? smuggledCaller(req);
    const bucket = broken('rate-limit-shared-across-workspaces') ? 'all' : (caller?.uuid ?? 'anonymous');
    res.locals.caller = caller;
    const now = Date.now();
    const windowStart = readings.limiter === 'fixed' ? Math.floor(now / windowMs) * windowMs : now - windowMs;
    const list = (hits.get(bucket) ?? []).filter((t) => t > windowStart);
    const over = list.length >= limit && !broken('no-429');
    if (!over) list.push(now);
    hits.set(bucket, list);
    const counted = Math.max(0, limit - list.length);
    const remaining = broken('remaining-constant')
      ? limit - 1
      : broken('remaining-off-by-one') && !over
        ? Math.min(limit, counted + 1)
        : counted;
    const resetMs =
      readings.limiter === 'fixed'
        ? windowStart + windowMs - now
        : list.length > 0
          ? list[0] + windowMs - now
          : windowMs;
    const reset = Math.max(1, Math.min(windowMs / 1000, Math.ceil(resetMs / 1000)));
    const window = windowMs / 1000;
    const headers: Record<string, string> = {
      RateLimit: `"workspace";r=${remaining};t=${window}`,
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': String(remaining),
      'RateLimit-Reset': String(reset),
      'RateLimit-Policy': `${limit};w=${window}`,
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': String(remaining),
      'X-RateLimit-Reset': String(reset),
    };
    for (const name of Object.keys(headers)) if (broken(`drop-header ${name}`)) delete headers[name];
    if (!(broken('401-without-rate-limit-headers') && !caller)) res.set(headers);
    if (over) {
      const extra = readings.retryAfterInBody ? { retryAfter: reset } : {};
      if (!broken('429-without-retry-after'))
        res.set('Retry-After', String(broken('retry-after-in-milliseconds') ? reset * 1000 : reset));
      res.status(broken('status 429') ? 503 : 429).json({
        errorMessage: `Slow down: the workspace quota of ${limit} requests per ${window} s is spent.`,
        reason: 'quota_exhausted',
        ...extra,
      });
      return;
    }
    next();
  });

  app.use('/v1', (req, res, next) => {
    // A broken server that validates the query before it authenticates (its framework's order).
    const limit = (req.query as Record<string, unknown>).limit;
    if (
      !res.locals.caller &&
      broken('validation-before-auth') &&
      typeof limit === 'string' &&
      !/^[1-9]\d*$/.test(limit)
    )
      return next(new HttpError(400, 'invalid_limit', 'limit must be a positive integer.'));
    if (!res.locals.caller) {
      if (broken('endpoint-without-auth') && req.method === 'GET' && req.path === '/expression/recipes/list') {
        res.locals.caller = workspaces.a;
        return next();
      }
      return next(
        new HttpError(
          broken('status 401') ? 403 : 401,
          'credential_missing',
          'Send Authorization: Bearer <API token>.',
        ),
      );
    }
    next();
  });

  /** Broken servers that also take the token from the query string or a cookie, as some frameworks offer. */
  function smuggledCaller(req: Request): Workspace | undefined {
    const query = req.query as Record<string, unknown>;
    const fromQuery = query.access_token ?? query.token;
    if (broken('token-in-query-accepted') && typeof fromQuery === 'string') return callerOf(`Bearer ${fromQuery}`);
    const cookie = /(?:^|;\s*)(?:access_token|token)=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    if (broken('token-in-cookie-accepted') && cookie) return callerOf(`Bearer ${cookie}`);
    if (broken('basic-accepted') && /^basic /i.test(req.headers.authorization ?? '')) return workspaces.a;
    const header = req.headers['x-api-key'];
    if (broken('token-in-other-header-accepted') && typeof header === 'string') return callerOf(`Bearer ${header}`);
    return undefined;
  }

  function callerOf(authorization: string | undefined): Workspace | undefined {
    const match = /^bearer +(\S+)$/i.exec(authorization?.trim() ?? '');
    if (!match) return undefined;
    const token = match[1];
    for (const [known, label] of Object.entries(TOKENS)) {
      if (token === known) return workspaces[label];
      if (broken('token-prefix-accepted') && known.startsWith(token) && token.length >= 8) return workspaces[label];
      if (broken('token-suffix-accepted') && token.startsWith(known)) return workspaces[label];
      if (broken('token-case-insensitive') && token.toLowerCase() === known.toLowerCase()) return workspaces[label];
    }
    return undefined;
  }

  // Multipart uploads refuse Idempotency-Key before anything reads the body.
  app.use('/v1', async (req, _res, next) => {
    const type = req.headers['content-type'] ?? '';
    if (broken('multipart-key-accepted') && type.startsWith('multipart/')) {
      // The broken server reads the form's fields as the body, key and all.
      let text = '';
      for await (const chunk of req) text += String(chunk);
      const name = /name="name"\r\n\r\n([^\r]*)/.exec(text)?.[1];
      req.body = name === undefined ? {} : { name };
      return next();
    }
    if (
      req.headers['idempotency-key'] !== undefined &&
      type.startsWith('multipart/') &&
      !broken('multipart-key-accepted')
    )
      return next(
        new HttpError(400, 'idempotency_key_not_allowed', 'Multipart uploads do not take an Idempotency-Key.'),
      );
    next();
  });
  // body-parser's defaults (strict JSON, its own error pages) are a mutant; this server reads any JSON value.
  app.use(
    '/v1',
    broken('body-parser-defaults') ? express.json() : express.json({ limit: '10mb', strict: false, type: () => true }),
  );

  // Idempotency: same key and request replays, another request is 422, a concurrent one 409.
  app.use('/v1', (req, res, next) => {
    const key = req.headers['idempotency-key'];
    if (typeof key !== 'string' || !['POST', 'PUT', 'PATCH'].includes(req.method)) return next();
    // A broken server that implements idempotency on some routes only (`idempotency-ignored <path glob>`).
    for (const mutation of mutations)
      if (mutation.startsWith('idempotency-ignored ')) {
        const glob = mutation.slice('idempotency-ignored '.length);
        if (new RegExp(`^${glob.split('*').join('[^/]+')}$`).test(req.path)) return next();
      }
    if (Array.from(key).length > 255 && !broken('overlong-key-accepted'))
      return next(new HttpError(400, 'idempotency_key_too_long', 'Idempotency-Key takes at most 255 characters.'));
    const caller = res.locals.caller as Workspace;
    const id = `${caller.uuid}|${key}`;
    const fingerprint = createHash('sha256')
      .update(`${req.method} ${req.path} ${JSON.stringify(req.body ?? null)}`)
      .digest('hex');
    const now = Date.now();
    const stored = keys.get(id);
    if (stored && stored.expires > now && !broken('replay-creates-new-record')) {
      if (stored.fingerprint !== fingerprint && !broken('key-reuse-accepted'))
        return next(new HttpError(422, 'key_mismatch', 'This Idempotency-Key belongs to another request.'));
      if (!stored.done) {
        if (broken('concurrent-retry-waits')) {
          stored.waiters.push(() => replay(res, stored));
          return;
        }
        return next(
          new HttpError(409, 'key_in_flight', 'The first request with this Idempotency-Key is still running.'),
        );
      }
      // A broken server whose replay answers the stored batch but enqueues its runs again.
      if (broken('batch-runs-duplicated-on-replay') && req.path === '/orchestration/batches') requeueBatch(stored.body);
      return replay(res, stored);
    }
    if (keys.size >= MAX_KEYS) for (const [k, v] of keys) if (v.expires <= now || keys.size >= MAX_KEYS) keys.delete(k);
    const entry: Stored = { fingerprint, done: false, expires: now + IDEMPOTENCY_TTL_MS, waiters: [] };
    keys.set(id, entry);
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      if (res.statusCode >= 500) keys.delete(id);
      else {
        const headers: Record<string, string> = {};
        const location = res.get('Location');
        if (location && !broken('replay-drops-location')) headers.Location = location;
        Object.assign(entry, { done: true, status: res.statusCode, headers, body });
        for (const waiter of entry.waiters.splice(0)) waiter();
      }
      return json(body);
    };
    next();
  });

  function requeueBatch(body: unknown) {
    const batch = batches.get(String((body as { batch?: { uuid?: unknown } } | undefined)?.batch?.uuid));
    if (!batch) return;
    const now = Date.now();
    for (const uuid of [...batch.runs]) {
      const run = runs.get(uuid);
      if (!run) continue;
      const copy: Run = { ...run, uuid: randomUUID(), createdAt: now, finishAt: now + runDurationMs };
      runs.set(copy.uuid, copy);
      batch.runs.push(copy.uuid);
    }
  }

  function replay(res: Response, stored: Stored) {
    res.set(stored.headers ?? {});
    res.set('Idempotent-Replayed', 'true');
    res.status(stored.status!).json(stored.body);
  }

  const problems = (scope: string, checks: (out: Problem[]) => void) => {
    const out: Problem[] = [];
    checks(out);
    if (out.length > 0)
      throw new HttpError(400, 'validation_failed', out.map((p) => p.message).join('; '), {
        fields: out.map((p) => p.key.split(':')[1]),
      });
  };
  const queryOf = (req: Request, scope: string, fields: Record<string, Field>) => {
    const values: Record<string, unknown> = {};
    problems(scope, (out) => {
      for (const [name, field] of Object.entries(fields)) {
        const raw = req.query[name];
        const list = raw === undefined ? [] : (Array.isArray(raw) ? raw : [raw]).map(String);
        values[name] = readQuery(field, list, scope, name, validation, out);
      }
    });
    return values;
  };
  const bodyOf = (req: Request, scope: string, fields: Record<string, Field>, required: string[] = []) => {
    // No bytes at all is no body (whatever the parser left in req.body).
    const empty = req.headers['transfer-encoding'] === undefined && Number(req.headers['content-length'] ?? 0) === 0;
    const body = empty ? undefined : req.body;
    problems(scope, (out) => {
      if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
        if (!validation.off.has(`${scope}:body:type`))
          out.push({ key: `${scope}:body:type`, message: 'the body must be a JSON object' });
        return;
      }
      for (const name of required)
        if (body[name] === undefined && !validation.off.has(`${scope}:${name}:required`))
          out.push({ key: `${scope}:${name}:required`, message: `${name} is required` });
      validateField({ type: 'object', fields }, body, scope, '', validation, out);
    });
    return (body ?? {}) as Record<string, any>;
  };
  const pathId = (req: Request, scope: string) => {
    const id = String(req.params.uuid);
    if (!UUID.test(id) && !validation.off.has(`${scope}:uuid:pattern`)) {
      if (readings.malformedPathId === 404)
        throw new HttpError(404, 'no_such_resource', `Nothing is identified by ${JSON.stringify(id)}.`);
      throw new HttpError(400, 'validation_failed', 'uuid: must be a UUID');
    }
    return id.toLowerCase();
  };
  const notFound = (what: string): never => {
    // A framework's own 404 page: the handler gives up and Express answers "Cannot GET …" in HTML.
    if (broken('framework-404-page')) throw Object.assign(new Error(`No ${what}`), { status: 404, expose: true });
    throw new HttpError(404, 'no_such_resource', `No ${what} with this uuid in your workspace.`);
  };
  const caller = (res: Response) => res.locals.caller as Workspace;
  const route =
    (handler: (req: Request, res: Response) => unknown) => async (req: Request, res: Response, next: NextFunction) => {
      try {
        await handler(req, res);
      } catch (error) {
        next(error);
      }
    };
  const absolute = (req: Request, path: string) => `${req.protocol}://${req.get('host')}${path}`;
  const locate = (req: Request, res: Response, kind: 'runs' | 'batches', uuid: string) => {
    const base = broken('location-without-v1') ? '' : '/v1';
    let location: string;
    if (broken('location-without-v1')) location = `/orchestration/${kind}/${uuid}`;
    else if (readings.location === 'absolute') location = absolute(req, `${base}/orchestration/${kind}/${uuid}`);
    // Relative to the request URL (RFC 3986): from …/runs the last segment is replaced, from …/runs/<id>/cancel two are.
    else location = req.path.endsWith('/cancel') ? `../${uuid}` : `${kind}/${uuid}`;
    if (!broken('drop-header Location')) res.set('Location', location);
    if (broken('retry-after-on-202')) res.set('Retry-After', '1');
  };

  const extra = (object: Record<string, unknown>) =>
    readings.extraFields ? { ...object, revision: 1, links: { self: `urn:x:${String(object.uuid)}` } } : object;

  // 1. List suppressions
  app.get(
    '/v1/mailboxManagement/suppressions',
    route((req, res) => {
      const scope = 'listSuppressions query';
      const q = queryOf(req, scope, {
        reasons: { type: 'array', items: { type: 'string', enum: REASONS } },
        limit: { type: 'integer', min: broken('limit-zero-accepted') ? 0 : 1, max: 1000 },
        offset: { type: 'integer', min: 0, max: Number.MAX_SAFE_INTEGER },
      });
      const wanted = q.reasons as string[] | undefined;
      const filter = broken('reasons-first-value-only') && wanted ? wanted.slice(0, 1) : wanted;
      const all = [...caller(res).suppressions].sort((x, y) => String(x.email).localeCompare(String(y.email)));
      // A broken list filters every workspace's suppressions once a filter is given.
      const unscoped =
        broken('list-unscoped /mailboxManagement/suppressions') ||
        Object.keys(req.query).some((name) => broken(`list-filter-unscoped ${name}`));
      const searched = unscoped ? [...workspaces.a.suppressions, ...workspaces.b.suppressions] : all;
      const matching = filter ? searched.filter((s) => filter.includes(s.reason as string)) : searched;
      const offset = (q.offset as number | undefined) ?? 0;
      const page = matching.slice(offset, offset + ((q.limit as number | undefined) ?? readings.pageSize));
      const count = broken('count-ignores-filter')
        ? all.length
        : broken('count-is-page-length')
          ? page.length
          : matching.length;
      // The Suppression is closed (no additional properties): an extra field is a mutant.
      res.json({
        count,
        suppressions: broken('suppression-extra-field') ? page.map((s) => ({ ...s, source: 'import' })) : page,
      });
    }),
  );

  // 2. Create MCP server
  const text = (min: number, max: number): Field => ({ type: 'string', min, max });
  app.post(
    '/v1/ai/mcpServers',
    route((req, res) => {
      const scope = 'createMcpServer body';
      const body = bodyOf(
        req,
        scope,
        {
          name: text(1, 255),
          description: text(1, 1000),
          actions: { type: 'array', items: { type: 'object' } },
          resources: { type: 'array', items: { type: 'object' } },
          capabilities: { type: 'array', items: { type: 'object' } },
          folderUuid: { type: 'string', uuid: true },
        },
        readings.requireMcpName ? ['name'] : [],
      );
      const now = iso(Date.now());
      const server = {
        uuid: randomUUID(),
        workspaceUuid: caller(res).uuid,
        userUuid: null,
        name: body.name ?? null,
        description: body.description ?? null,
        actions: body.actions ?? [],
        resources: body.resources ?? [],
        capabilities: body.capabilities ?? [],
        folderUuid: body.folderUuid ?? null,
        templateSlug: null,
        isReadOnly: false,
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      };
      caller(res).mcpServers.set(server.uuid, server);
      res.status(readings.mcpCreatedStatus).json({ mcpServer: extra(server) });
    }),
  );

  // 3. Download runs
  const uuidField: Field = { type: 'string', uuid: true };
  app.post(
    '/v1/orchestration/runs/download',
    route((req, res) => {
      bodyOf(req, 'downloadRuns body', {
        workflowUuid: uuidField,
        releaseUuid: uuidField,
        batchUuid: uuidField,
        parentBatchUuid: uuidField,
        parentUuid: uuidField,
        parentNodeUuid: uuidField,
        uuids: { type: 'array', items: uuidField },
        statuses: { type: 'array', items: { type: 'string', enum: RUN_STATUSES } },
        recordId: { type: 'string' },
        recordTitle: { type: 'string' },
        recordTitleOrId: { type: 'string' },
        isFinished: { type: 'boolean' },
        isGroupParent: { type: 'boolean' },
        createdAfter: { type: 'string' },
        createdBefore: { type: 'string' },
        updatedAfter: { type: 'string' },
        updatedBefore: { type: 'string' },
      });
      const body = req.body as Record<string, unknown>;
      const scoped = [...runs.values()].filter(
        (run) => run.workspaceUuid === caller(res).uuid || broken('export-includes-other-workspaces'),
      );
      // A broken export looks runs named by uuid up among every workspace's.
      const named = body.uuids as string[] | undefined;
      const pool = Object.keys(body).some((field) => broken(`export-filter-unscoped ${field}`))
        ? [...runs.values()]
        : scoped;
      const now = Date.now();
      const selected = pool.filter(
        (run) =>
          (!named || named.includes(run.uuid)) &&
          (body.batchUuid === undefined || run.batchUuid === body.batchUuid) &&
          (body.recordTitle === undefined || run.recordTitle === body.recordTitle) &&
          (body.recordId === undefined || run.recordId === body.recordId) &&
          (body.recordTitleOrId === undefined ||
            [run.recordTitle, run.recordId].includes(body.recordTitleOrId as string)) &&
          (body.statuses === undefined || (body.statuses as string[]).includes(statusOf(run, now))) &&
          (body.isFinished === undefined || TERMINAL.includes(statusOf(run, now)) === body.isFinished),
      );
      const id = randomUUID();
      exportFiles.set(id, { workspaceUuid: caller(res).uuid, runs: selected.map((run) => run.uuid) });
      if (exportFiles.size > 1000) exportFiles.delete(exportFiles.keys().next().value as string);
      res.json({ url: absolute(req, `/exports/${id}.ndjson`), expiresInSeconds: 900 });
    }),
  );

  // 4. Update current workspace (a full replacement: omitted fields go back to their defaults)
  const nullable = <T extends Field>(field: T): T => ({ ...field, nullable: true });
  app.put(
    '/v1/workspaceManagement/workspaces/current',
    route((req, res) => {
      const scope = 'updateCurrentWorkspace body';
      const stringArray: Field = { type: 'array', items: { type: 'string' } };
      const body = bodyOf(
        req,
        scope,
        {
          syncs: { type: 'array', items: { type: 'object', fields: { cron: { type: 'string' } } } },
          name: { type: 'string', min: 1, max: 255, excluded: broken('pattern-allows-gt') ? ['<'] : ['<', '>'] },
          allowedEmailDomains: stringArray,
          logoBase64: nullable({ type: 'string' }),
          metadata: {
            type: 'object',
            fields: {
              mainGoal: nullable(stringArray),
              salesRepCount: nullable({ type: 'string' }),
              gtmStackList: nullable(stringArray),
              referralSource: nullable(stringArray),
            },
          },
          browserExtensionMasterAgentUuid: nullable(uuidField),
          browserExtensionAvailableAgentUuids: nullable(stringArray),
          defaultRoleUuid: nullable(uuidField),
          allowedLoginProviders: nullable({ type: 'array', items: { type: 'string', enum: PROVIDERS } }),
        },
        readings.putReplaces ? ['name'] : [],
      );
      const ws = caller(res);
      const base = readings.putReplaces
        ? {
            name: null,
            allowedEmailDomains: [],
            logoUrl: null,
            metadata: null,
            syncs: [],
            browserExtensionMasterAgentUuid: null,
            browserExtensionAvailableAgentUuids: null,
            defaultRoleUuid: null,
            allowedLoginProviders: null,
          }
        : ws.settings;
      const { logoBase64, ...rest } = body;
      ws.settings = {
        ...base,
        ...rest,
        logoUrl:
          logoBase64 === null
            ? null
            : logoBase64 !== undefined
              ? 'https://logos.invalid/logo.png'
              : (base.logoUrl ?? null),
        updatedAt: iso(Date.now()),
      };
      res.json({ workspace: extra({ uuid: ws.uuid, createdAt: iso(0), ...ws.settings }) });
    }),
  );

  // 5. Execute SQL query: one read-only SELECT, over a database that holds only the caller's rows.
  app.post(
    '/v1/orchestration/query',
    route((req, res) => {
      const scope = 'executeQuery body';
      const body = bodyOf(
        req,
        scope,
        { query: broken('query-length-unchecked') ? { type: 'string' } : { type: 'string', max: 10000 } },
        ['query'],
      );
      // Without its rules the handler meets a query that is not text, as real code would: it throws (a 500).
      const query = body.query as string;
      const statement = query.replace(/^(\s|--[^\n]*\n|\/\*[\s\S]*?\*\/)+/, '');
      if (!broken('sql-executes-writes') && !/^(select|with)\b/i.test(statement))
        throw new HttpError(400, 'not_a_select', 'Only one read-only SELECT statement is run.');
      // A broken server that scopes by appending `workspaceUuid = …` to the statement's text, without parentheses.
      const appended = broken('sql-scope-appended') ? appendScope(query, caller(res).uuid) : undefined;
      const db = broken('sql-executes-writes')
        ? lastingDatabase()
        : buildDatabase(appended !== undefined || escapesScoping(query) ? undefined : caller(res).uuid);
      try {
        if (!broken('sql-executes-writes')) {
          let count = 0;
          for (const _ of db.iterateStatements(query))
            if (++count > 1) throw new HttpError(400, 'not_a_select', 'Only one statement is run.');
        }
        const results = db.exec(appended ?? query);
        const first = results[0];
        const rows = first
          ? first.values.map((values) => Object.fromEntries(first.columns.map((c, i) => [c, values[i]])))
          : [];
        res.json({ rows });
      } catch (error) {
        if (error instanceof HttpError) throw error;
        throw new HttpError(400, 'sql_error', `The query failed: ${(error as Error).message}`);
      } finally {
        if (db !== sharedDb) db.close();
      }
    }),
  );

  /**
   * A broken server that scopes by rewriting the bare table name: a statement naming a table in another form
   * (`sql-form-unscoped <form>`) reads every workspace's rows.
   */
  function escapesScoping(query: string): boolean {
    const table = '(logs|runs|batches|records|spans)';
    const forms: Record<string, RegExp> = {
      '"quoted"': new RegExp(`"${table}"`, 'i'),
      '[bracketed]': new RegExp(`\\[${table}\\]`, 'i'),
      '`backticked`': new RegExp(`\`${table}\``, 'i'),
      'schema-qualified': new RegExp(`\\bmain\\.${table}`, 'i'),
      join: /\bjoin\b/i,
      subquery: /\(\s*select\b/i,
      CTE: /^\s*with\b/i,
      OR: /\bor\b/i,
      NOT: /\bnot\b/i,
      nested: /\bwhere\s*\(/i,
      precedence: /\bor\b[^()]*\band\b/i,
    };
    return Object.entries(forms).some(([form, pattern]) => broken(`sql-form-unscoped ${form}`) && pattern.test(query));
  }

  function appendScope(query: string, workspaceUuid: string): string {
    const condition = `workspaceUuid = '${workspaceUuid}'`;
    const limit = /\s+limit\s+\d+\s*;?\s*$/i.exec(query);
    const head = limit ? query.slice(0, limit.index) : query.replace(/;?\s*$/, '');
    return `${head} ${/\bwhere\b/i.test(head) ? 'AND' : 'WHERE'} ${condition}${limit ? limit[0] : ''}`;
  }

  /** The broken endpoint's one database: runs created since are added, and whatever a statement did stays. */
  function lastingDatabase(): Database {
    if (!sharedDb) {
      sharedDb = buildDatabase(undefined);
      for (const uuid of runs.keys()) synced.add(uuid);
    }
    for (const run of runs.values()) {
      if (synced.has(run.uuid)) continue;
      synced.add(run.uuid);
      sharedDb.run('INSERT INTO runs (uuid, workspaceUuid, recordTitle, status) VALUES (?, ?, ?, ?)', [
        run.uuid,
        run.workspaceUuid,
        run.recordTitle,
        'pending',
      ]);
    }
    return sharedDb;
  }

  function buildDatabase(workspaceUuid: string | undefined): Database {
    const db = new SQL.Database();
    const unscoped = (table: string) => workspaceUuid === undefined || broken(`sql-table-unscoped ${table}`);
    const mine = <T extends { workspaceUuid: string }>(table: string, rows: T[]) =>
      rows.filter((row) => unscoped(table) || row.workspaceUuid === workspaceUuid);
    const now = Date.now();
    const runRows = mine('runs', [...runs.values()]).map((run) => ({
      uuid: run.uuid,
      workspaceUuid: run.workspaceUuid,
      workflowUuid: run.workflowUuid,
      batchUuid: run.batchUuid,
      recordId: run.recordId,
      recordTitle: run.recordTitle,
      status: statusOf(run, now),
      createdAt: iso(run.createdAt),
    }));
    const batchRows = mine('batches', [...batches.values()]).map((batch) => ({
      uuid: batch.uuid,
      workspaceUuid: batch.workspaceUuid,
      workflowUuid: batch.workflowUuid,
      status: batchStatus(batch, now),
      createdAt: iso(batch.createdAt),
    }));
    const logRows = mine('logs', [...runs.values()]).map((run) => ({
      uuid: createHash('md5').update(`log${run.uuid}`).digest('hex'),
      workspaceUuid: run.workspaceUuid,
      runUuid: run.uuid,
      level: 'info',
      message: `run ${run.uuid} started`,
      createdAt: iso(run.createdAt),
    }));
    const spanRows = mine('spans', [...runs.values()]).map((run) => ({
      uuid: createHash('md5').update(`span${run.uuid}`).digest('hex'),
      workspaceUuid: run.workspaceUuid,
      runUuid: run.uuid,
      name: 'run',
      durationMs: runDurationMs,
    }));
    const recordRows = mine('records', [...workspaces.a.records, ...workspaces.b.records] as Array<{
      workspaceUuid: string;
    }>);
    for (const [table, rows, columns] of [
      [
        'runs',
        runRows,
        ['uuid', 'workspaceUuid', 'workflowUuid', 'batchUuid', 'recordId', 'recordTitle', 'status', 'createdAt'],
      ],
      ['batches', batchRows, ['uuid', 'workspaceUuid', 'workflowUuid', 'status', 'createdAt']],
      ['logs', logRows, ['uuid', 'workspaceUuid', 'runUuid', 'level', 'message', 'createdAt']],
      ['spans', spanRows, ['uuid', 'workspaceUuid', 'runUuid', 'name', 'durationMs']],
      ['records', recordRows, ['id', 'workspaceUuid', 'modelUuid', 'title', 'createdAt']],
    ] as const) {
      db.run(`CREATE TABLE ${table} (${columns.map((c) => `"${c}"`).join(', ')})`);
      const insert = db.prepare(`INSERT INTO ${table} VALUES (${columns.map(() => '?').join(', ')})`);
      for (const row of rows as Array<Record<string, unknown>>)
        insert.run(columns.map((c) => (row[c] ?? null) as string | number | null));
      insert.free();
    }
    return db;
  }

  // 6, 7. Get workflow, get model
  for (const [path, kind, op] of [
    ['/v1/orchestration/workflows/:uuid', 'workflows', 'getWorkflow'],
    ['/v1/storage/models/:uuid', 'models', 'getModel'],
  ] as const) {
    app.get(
      path,
      route((req, res) => {
        const id = pathId(req, `${op} path`);
        const owner = broken(`${kind}-readable-cross-workspace`)
          ? [workspaces.a, workspaces.b].find((w) => w[kind].has(id))
          : caller(res);
        const found = owner?.[kind].get(id) ?? notFound(kind === 'workflows' ? 'workflow' : 'model');
        res.json(kind === 'workflows' ? { workflow: extra(found) } : { model: extra(found) });
      }),
    );
  }

  // 8. Cancel domain (credits stay charged)
  app.delete(
    '/v1/domainManagement/domains/:uuid',
    route((req, res) => {
      const id = pathId(req, 'cancelDomain path');
      const domain = caller(res).domains.get(id) ?? notFound('domain');
      Object.assign(domain, { status: 'cancelled', autoRenew: false, updatedAt: iso(Date.now()) });
      res.json({ domain: extra(domain) });
    }),
  );

  // 9. List allocations
  app.get(
    '/v1/revenueOrganization/allocations/list',
    route((req, res) => {
      const q = queryOf(req, 'listAllocations query', {
        memberUuids: { type: 'array', items: { type: 'string' } },
        capacityUuid: uuidField,
        territoryUuid: uuidField,
        limit: { type: 'integer', min: 1, max: 500 },
        offset: { type: 'integer', min: 0 },
      });
      let list = broken('list-unscoped /revenueOrganization/allocations/list')
        ? [...workspaces.a.allocations, ...workspaces.b.allocations]
        : caller(res).allocations;
      if (q.memberUuids) list = list.filter((a) => (q.memberUuids as string[]).includes(a.memberUuid as string));
      if (q.capacityUuid) list = list.filter((a) => a.capacityUuid === q.capacityUuid);
      const offset = (q.offset as number | undefined) ?? 0;
      res.json({
        allocations: list.slice(offset, offset + ((q.limit as number | undefined) ?? readings.pageSize)).map(extra),
      });
    }),
  );

  // 10. Remove environment variable
  app.delete(
    '/v1/workspaceManagement/env-vars/:uuid',
    route((req, res) => {
      const id = pathId(req, 'removeEnvironmentVariable path');
      if (!caller(res).envVars.delete(id)) notFound('environment variable');
      res.json({});
    }),
  );

  // 11. List recipes
  app.get(
    '/v1/expression/recipes/list',
    route((req, res) => {
      const q = queryOf(req, 'listRecipes query', {
        uiTypes: { type: 'array', items: { type: 'string', enum: ['ai', 'js'] } },
        tab: { type: 'string', enum: ['all', 'user', 'workspace', 'favorites'] },
        categories: {
          type: 'array',
          items: {
            type: 'string',
            enum: ['other', 'classification', 'cleaning', 'marketing', 'sales', 'event', 'copywriting'],
          },
        },
        name: { type: 'string' },
        limit: { type: 'integer', min: 1, max: 200 },
        offset: { type: 'integer', min: 0 },
      });
      let list = broken('list-unscoped /expression/recipes/list')
        ? [...workspaces.a.recipes, ...workspaces.b.recipes]
        : caller(res).recipes;
      if (broken('deprecation-header')) res.set('Deprecation', `@${Math.floor(Date.now() / 1000)}`);
      if (typeof q.name === 'string')
        list = list.filter((r) =>
          String(r.name)
            .toLowerCase()
            .includes((q.name as string).toLowerCase()),
        );
      const offset = (q.offset as number | undefined) ?? 0;
      res.json({
        recipes: list.slice(offset, offset + ((q.limit as number | undefined) ?? readings.pageSize)).map(extra),
      });
    }),
  );

  // Runs and batches (the contract's provisional operations)
  function statusOf(run: Run, now: number): string {
    if (run.status) return run.status;
    if (run.cancelledAt !== undefined) return now - run.cancelledAt > 100 ? 'cancelled' : 'cancelling';
    if (now >= run.finishAt && !broken('run-never-finishes'))
      return broken('run-finishes-outside-set') && !run.batchUuid ? 'done' : 'success';
    return now - run.createdAt < runDurationMs / 3 ? 'pending' : 'running';
  }
  function runView(run: Run, now = Date.now()) {
    let status = statusOf(run, now);
    if (broken('run-leaves-terminal') && TERMINAL.includes(status) && now - run.finishAt > 150) status = 'running';
    return extra({
      uuid: run.uuid,
      status,
      workflowUuid: run.workflowUuid,
      batchUuid: run.batchUuid,
      recordId: run.recordId,
      recordTitle: run.recordTitle,
      createdAt: iso(run.createdAt),
      updatedAt: iso(Math.min(now, run.finishAt)),
      finishedAt: TERMINAL.includes(status) || status === 'done' ? iso(run.finishAt) : null,
    });
  }
  function batchStatus(batch: Batch, now: number): string {
    const statuses = batch.runs.map((id) => statusOf(runs.get(id)!, now));
    if (statuses.every((s) => TERMINAL.includes(s)))
      return statuses.every((s) => s === 'cancelled') && statuses.length > 0
        ? 'cancelled'
        : broken('batch-finishes-completed')
          ? 'completed'
          : 'success';
    return 'pending';
  }
  const ownRun = (req: Request, res: Response, op: string) => {
    const id = pathId(req, `${op} path`);
    const run = runs.get(id);
    if (
      !run ||
      (run.workspaceUuid !== caller(res).uuid &&
        !broken(op === 'cancelRun' ? 'cancel-cross-workspace' : 'runs-readable-cross-workspace'))
    )
      return notFound('run');
    return run;
  };

  app.post(
    '/v1/orchestration/runs',
    route(async (req, res) => {
      const body = bodyOf(req, 'createRun body', {
        workflowUuid: uuidField,
        releaseUuid: uuidField,
        recordId: { type: 'string' },
        recordTitle: { type: 'string' },
        input: { type: 'object' },
        waitUntilFinished: { type: 'boolean' },
      });
      const now = Date.now();
      const run: Run = {
        uuid: randomUUID(),
        workspaceUuid: caller(res).uuid,
        recordId: body.recordId ?? null,
        recordTitle: body.recordTitle ?? null,
        workflowUuid: body.workflowUuid ?? null,
        batchUuid: null,
        createdAt: now,
        finishAt: now + runDurationMs,
      };
      runs.set(run.uuid, run);
      const waits = body.waitUntilFinished === true && !broken('wait-true-answers-202');
      if (waits || (broken('wait-false-answers-200') && body.waitUntilFinished === false)) {
        await new Promise((resolve) => setTimeout(resolve, runDurationMs + 5));
        res.status(200).json({ run: runView(run) });
        return;
      }
      locate(req, res, 'runs', run.uuid);
      res.status(broken('status 202') ? 200 : 202).json({ run: runView(run) });
    }),
  );
  app.get(
    '/v1/orchestration/runs/:uuid',
    route((req, res) => {
      res.json({ run: runView(ownRun(req, res, 'getRun')) });
    }),
  );
  app.post(
    '/v1/orchestration/runs/:uuid/cancel',
    route((req, res) => {
      const run = ownRun(req, res, 'cancelRun');
      const now = Date.now();
      const finished = TERMINAL.includes(statusOf(run, now));
      if (finished && !broken('cancel-reopens-finished-run')) return res.status(200).json({ run: runView(run, now) });
      run.cancelledAt ??= now;
      run.finishAt = Math.min(run.finishAt, now + 100);
      run.status = undefined;
      if (broken('cancel-answers-200')) return res.status(200).json({ run: runView(run, now) });
      locate(req, res, 'runs', run.uuid);
      res.status(202).json({ run: runView(run, now) });
    }),
  );
  app.post(
    '/v1/orchestration/batches',
    route((req, res) => {
      const body = bodyOf(req, 'createBatch body', {
        workflowUuid: uuidField,
        recordIds: { type: 'array', items: { type: 'string' } },
      });
      const now = Date.now();
      const batch: Batch = {
        uuid: randomUUID(),
        workspaceUuid: caller(res).uuid,
        workflowUuid: body.workflowUuid ?? null,
        runs: [],
        createdAt: now,
      };
      for (const recordId of (body.recordIds as string[] | undefined) ?? ['conformance-record']) {
        const run: Run = {
          uuid: randomUUID(),
          workspaceUuid: batch.workspaceUuid,
          recordId,
          recordTitle: null,
          workflowUuid: batch.workflowUuid,
          batchUuid: batch.uuid,
          createdAt: now,
          finishAt: now + runDurationMs,
        };
        runs.set(run.uuid, run);
        batch.runs.push(run.uuid);
      }
      batches.set(batch.uuid, batch);
      locate(req, res, 'batches', batch.uuid);
      res.status(202).json({
        batch: extra({
          uuid: batch.uuid,
          status: batchStatus(batch, now),
          runsStatus: 'healthy',
          createdAt: iso(now),
        }),
      });
    }),
  );
  app.get(
    '/v1/orchestration/batches/:uuid',
    route((req, res) => {
      const id = pathId(req, 'getBatch path');
      const batch = batches.get(id);
      if (!batch || (batch.workspaceUuid !== caller(res).uuid && !broken('batches-readable-cross-workspace')))
        return notFound('batch');
      const now = Date.now();
      let status = batchStatus(batch, now);
      // A broken batch falls back to pending once it was seen finished.
      if (broken('batch-leaves-terminal') && TERMINAL.includes(status) && batch.seenTerminal) status = 'pending';
      if (TERMINAL.includes(status)) batch.seenTerminal = true;
      res.json({
        batch: extra({
          uuid: batch.uuid,
          status,
          runsStatus: 'healthy',
          workflowUuid: batch.workflowUuid,
          createdAt: iso(batch.createdAt),
          finishedAt: TERMINAL.includes(status) || status === 'completed' ? iso(now) : null,
        }),
      });
    }),
  );

  // Run exports: NDJSON, one run a line, for the workspace that asked for it only.
  app.get(
    '/exports/:file',
    route((req, res) => {
      const caller = res.locals.caller as Workspace | undefined;
      if (!caller) throw new HttpError(401, 'credential_missing', 'Send Authorization: Bearer <API token>.');
      const file = exportFiles.get(String(req.params.file).replace(/\.ndjson$/, ''));
      if (!file || file.workspaceUuid !== caller.uuid) return notFound('export');
      const now = Date.now();
      res
        .type('application/x-ndjson')
        .send(file.runs.map((uuid) => JSON.stringify(runView(runs.get(uuid)!, now))).join('\n'));
    }),
  );

  // Anything else is not found, in the error shape (a framework's own 404 page is a mutant).
  if (!broken('framework-404-page'))
    app.use((req, _res, next) =>
      next(new HttpError(404, 'no_such_route', `${req.method} ${req.path} is not an operation of this API.`)),
    );
  if (!broken('framework-error-body'))
    app.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
      if (broken('error-body-message-key') && error instanceof HttpError)
        return res.status(error.status).json({ message: error.message, code: error.reason });
      if (error instanceof HttpError)
        return res.status(error.status).json({ errorMessage: error.message, reason: error.reason, ...error.extra });
      if (
        (broken('framework-404-page') && (error as { status?: number }).status === 404) ||
        (broken('body-parser-defaults') && (error as { type?: string }).type !== undefined)
      )
        return next(error);
      const status = (error as { status?: number; type?: string }).status;
      if (status === 413)
        return res.status(413).json({ errorMessage: 'The body is over 10 MB.', reason: 'body_too_large' });
      if (status !== undefined && status >= 400 && status < 500)
        return res
          .status(400)
          .json({ errorMessage: `The body is not valid JSON: ${(error as Error).message}`, reason: 'malformed_body' });
      res.status(500).json({ errorMessage: 'Something went wrong on our side.', reason: 'internal' });
    });

  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    tokenA: TOKEN_A,
    tokenB: TOKEN_B,
    close: () =>
      new Promise<void>((resolve) => {
        sharedDb?.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  function seedWorkspace(label: 'a' | 'b'): Workspace {
    const uuid = randomUUID();
    const now = Date.now();
    const suppressions = Array.from({ length: 37 }, (_, i) => ({
      uuid: randomUUID(),
      workspaceUuid: uuid,
      email: `person${i}.${label}@example.org`,
      reason: REASONS[(i * 7) % 4],
      mailboxUuid: i % 3 === 0 ? null : randomUUID(),
      messageUuid: i % 2 === 0 ? null : randomUUID(),
      createdAt: iso(now - i * 60_000),
      updatedAt: iso(now - i * 30_000),
    }));
    const workflows = new Map<string, Record<string, unknown>>();
    const models = new Map<string, Record<string, unknown>>();
    for (let i = 0; i < 2; i++) {
      const w = randomUUID();
      workflows.set(w, {
        uuid: w,
        workspaceUuid: uuid,
        nodes: [],
        createdAt: iso(now),
        updatedAt: iso(now),
        deletedAt: null,
        template: null,
        lastBatch: null,
        deployedRelease: null,
      });
      const m = randomUUID();
      models.set(m, {
        uuid: m,
        workspaceUuid: uuid,
        slug: `model-${i}`,
        name: `Model ${i}`,
        columns: [],
        kind: 'connector',
        isPaused: false,
        createdAt: iso(now),
      });
    }
    const domain = randomUUID();
    const records = [...models.keys()].map((modelUuid, i) => ({
      id: `rec-${label}-${i}`,
      workspaceUuid: uuid,
      modelUuid,
      title: `Record ${i}`,
      createdAt: iso(now),
    }));
    return {
      uuid,
      suppressions,
      mcpServers: new Map(),
      workflows,
      models,
      domains: new Map([
        [
          domain,
          {
            uuid: domain,
            workspaceUuid: uuid,
            name: `mail-${label}.example.org`,
            status: 'pending',
            priceCredits: 120,
            autoRenew: true,
            dnsRecords: [],
            createdAt: iso(now),
          },
        ],
      ]),
      envVars: new Set([randomUUID()]),
      allocations: Array.from({ length: 3 }, (_, i) => ({
        uuid: randomUUID(),
        memberUuid: `member-${i}`,
        workspaceUuid: uuid,
        capacityUuid: randomUUID(),
        isFallbackMember: false,
        recordIds: [],
        createdAt: iso(now),
      })),
      recipes: [
        {
          uuid: randomUUID(),
          workspaceUuid: uuid,
          name: `Clean emails ${label}`,
          expression: 'lower(email)',
          isPublic: false,
          version: 1,
        },
        {
          uuid: randomUUID(),
          workspaceUuid: uuid,
          name: `Score lead ${label}`,
          expression: 'score(x)',
          isPublic: false,
          version: 2,
        },
      ],
      settings: {
        name: `Workspace ${label.toUpperCase()}`,
        allowedEmailDomains: [],
        logoUrl: null,
        metadata: null,
        syncs: [],
      },
      records,
    };
  }
}

if (require.main === module) {
  startIndependentServer({ rateLimit: Number(process.env.RATE_LIMIT ?? 600) }).then((s) => {
    process.stdout.write(`independent server on ${s.url} (tokens ${s.tokenA}, ${s.tokenB})\n`);
  });
}
