import { whenKnown } from '../maybe-promise';
import { latin1Decode, latin1Encode } from '../web/bytes';
import { jsonResponse, type Ctx } from '../context';
import { rememberJsonText } from '../json-text';
import { undoOnFailure } from '../stages/all-or-nothing';
import type { JsonRecord } from '../store/types';
import { notFound } from './paging';
import type { HandlerDeps, Handlers } from './types';

/** The ISO text of a time; requests in the same millisecond share the last one's. */
let lastIso = { ms: NaN, text: '' };
const iso = (ms: number) =>
  ms === lastIso.ms ? lastIso.text : (lastIso = { ms, text: new Date(ms).toISOString() }).text;

/** Copies a body field only when the client sent it: omitted fields are left unchanged. */
function has(body: JsonRecord, field: string): boolean {
  return Object.prototype.hasOwnProperty.call(body, field);
}

/** Reads and writes of single resources, each scoped to the caller's workspace. */
export function resourceHandlers(deps: HandlerDeps) {
  // The UUID rule accepts upper-case hex; ids are stored lower-case.
  const uuidOf = (params: Record<string, unknown>) => String(params.uuid).toLowerCase();

  return {
    // Reads answer at once when the store is in this process (`whenKnown`); a 404 is thrown either way.
    getWorkflow(ctx) {
      const uuid = uuidOf(ctx.input.path);
      return whenKnown(deps.store.get(ctx.caller.workspaceUuid, 'workflows', uuid), (workflow) => {
        if (!workflow) throw notFound('workflow', uuid);
        return jsonResponse(200, { workflow });
      });
    },

    getModel(ctx) {
      const uuid = uuidOf(ctx.input.path);
      return whenKnown(deps.store.get(ctx.caller.workspaceUuid, 'models', uuid), (model) => {
        if (!model) throw notFound('model', uuid);
        return jsonResponse(200, { model });
      });
    },

    /** Cancelling keeps the domain (status `cancelled`), and its credits: they are not refunded. */
    async cancelDomain(ctx) {
      const uuid = uuidOf(ctx.input.path);
      const now = iso(deps.now());
      const workspaceUuid = ctx.caller.workspaceUuid;
      const change = trackChange<JsonRecord>((current) =>
        current.status === 'cancelled'
          ? undefined
          : { ...current, status: 'cancelled', autoRenew: false, updatedAt: now, deletedAt: now },
      );
      const domain = await deps.store.update(workspaceUuid, 'domains', uuid, change.apply);
      if (!domain) throw notFound('domain', uuid);
      change.undoWith(ctx, (back) => deps.store.update(workspaceUuid, 'domains', uuid, back));
      return jsonResponse(200, { domain });
    },

    async removeEnvironmentVariable(ctx) {
      const uuid = uuidOf(ctx.input.path);
      if (!(await deps.store.remove(ctx.caller.workspaceUuid, 'envVars', uuid)))
        throw notFound('environment variable', uuid);
      return jsonResponse(200, {});
    },

    async createMcpServer(ctx) {
      const workspaceUuid = ctx.caller.workspaceUuid;
      const body = ctx.req.body as JsonRecord;
      const now = iso(deps.now());
      const uuid = nextUuid();
      const mcpServer: JsonRecord = {
        uuid,
        workspaceUuid,
        userUuid:
          ctx.caller.sub ?? deps.store.userUuidKnown(workspaceUuid) ?? (await deps.store.userUuid(workspaceUuid)),
        name: body.name ?? null,
        description: body.description ?? null,
        actions: (body.actions as JsonRecord[] | undefined) ?? [],
        // Responses carry the filter's conjunction and the sandbox scope, which inputs leave out.
        resources: ((body.resources as JsonRecord[] | undefined) ?? []).map((r) =>
          r.kind === 'model' && r.filter && typeof r.filter === 'object'
            ? { ...r, filter: { conjonction: 'or', ...(r.filter as JsonRecord) } }
            : r,
        ),
        capabilities: ((body.capabilities as JsonRecord[] | undefined) ?? []).map((c) =>
          c.slug === 'sandbox' ? { ...c, config: { scope: 'chat', ...((c.config as JsonRecord | null) ?? {}) } } : c,
        ),
        folderUuid: body.folderUuid ?? null,
        templateSlug: null,
        isReadOnly: false,
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      };
      // Under a key the server joins the answer's commit: nothing to wait for.
      const text = ctx.withAnswer
        ? deps.store.joinMcpServer(workspaceUuid, mcpServer, ctx.withAnswer)
        : await deps.store.addMcpServer(workspaceUuid, mcpServer);
      undoOnFailure(ctx, () => deps.store.removeCreatedMcpServer(workspaceUuid, uuid));
      // The answer's text is the stored one in its envelope: the server is serialised once.
      const answer = { mcpServer };
      rememberJsonText(answer, `{"mcpServer":${text}}`);
      return jsonResponse(201, answer);
    },

    /**
     * Omitted fields stay; each null means what the contract says: logoBase64 null removes the logo, the
     * agent fields null clear, defaultRoleUuid null means the role viewer, allowedLoginProviders null allows all.
     */
    async updateCurrentWorkspace(ctx) {
      const body = ctx.req.body as JsonRecord;
      const updatedAt = iso(deps.now());
      const workspaceUuid = ctx.caller.workspaceUuid;
      // Applied by compare-and-set on the stored settings: a concurrent change on another replica is never lost.
      const change = trackChange<JsonRecord>((current) => {
        const next: JsonRecord = { ...current };
        if (has(body, 'name')) next.name = body.name;
        if (has(body, 'allowedEmailDomains')) next.allowedEmailDomains = [...(body.allowedEmailDomains as string[])];
        if (has(body, 'syncs')) {
          next.syncs = (body.syncs as JsonRecord[]).map((sync, i) => ({
            domain: 'connection',
            engineScheduleWorkflowId: `sync-${String(current.uuid).slice(0, 4)}-${i}`,
            cron: sync.cron ?? null,
          }));
        }
        if (has(body, 'logoBase64'))
          next.logoUrl = body.logoBase64 === null ? null : `data:image/png;base64,${body.logoBase64}`;
        if (has(body, 'metadata')) next.metadata = { ...(body.metadata as JsonRecord) };
        for (const field of [
          'browserExtensionMasterAgentUuid',
          'browserExtensionAvailableAgentUuids',
          'defaultRoleUuid',
          'allowedLoginProviders',
        ] as const) {
          if (has(body, field))
            next[field] = Array.isArray(body[field]) ? [...(body[field] as unknown[])] : body[field];
        }
        next.updatedAt = updatedAt;
        return next;
      });
      const workspace = await deps.store.updateWorkspace(workspaceUuid, (current) => change.apply(current) ?? current);
      change.undoWith(ctx, (back) => deps.store.updateWorkspace(workspaceUuid, (current) => back(current) ?? current));
      return jsonResponse(200, { workspace });
    },

    async executeQuery(ctx) {
      const engine = await deps.queryEngine();
      const { query } = ctx.req.body as { query: string };
      const result = await engine.query(ctx.caller.workspaceUuid, query, ctx.signal);
      return jsonResponse(200, { rows: result.rows });
    },
  } satisfies Handlers;
}

/**
 * A compare-and-set change that remembers what it replaced and what it wrote (the last attempt's), so a request
 * that fails later can put the entry back: only while it still holds what this request wrote, so a later change
 * by another request is never undone.
 */
export function trackChange<T>(change: (current: T) => T | undefined) {
  let written: { before: string; after: string } | undefined;
  return {
    /** Whether the last attempt changed the entry. */
    get changed(): boolean {
      return written !== undefined;
    },
    apply: (current: T): T | undefined => {
      const next = change(current);
      written = next === undefined ? undefined : { before: JSON.stringify(current), after: JSON.stringify(next) };
      return next;
    },
    /** Registers the undo: `put` applies `back` by compare-and-set on the entry. */
    undoWith(ctx: Ctx, put: (back: (current: T) => T | undefined) => Promise<unknown>): void {
      const applied = written;
      if (!applied) return;
      undoOnFailure(ctx, () =>
        put((current) => (JSON.stringify(current) === applied.after ? (JSON.parse(applied.before) as T) : undefined)),
      );
    },
  };
}

/** Random bytes for 256 uuids at a time; hex digits written into one buffer (`randomUUID` joins 20 parts). */
const entropy = new Uint8Array(16 * 256);
let entropyAt = entropy.length;
const HEX_DIGITS = latin1Encode(Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0')).join(''));
const uuidText = latin1Encode('00000000-0000-0000-0000-000000000000');
/** Where each of the 16 bytes' two hex digits go in the text. */
const DIGITS_AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];

/**
 * New records get random uuids (v4 with an RFC variant, inside the contract's rule), each made as one flat
 * string: a record keeps its uuid (as a hash field, in its created list), so no tree of parts is left to copy.
 */
export function nextUuid(): string {
  const at = takeEntropy();
  entropy[at + 6] = (entropy[at + 6] & 0x0f) | 0x40; // version 4
  return uuidOf(at);
}

/** Where the next 16 random bytes are in the pool (refilled when spent). */
function takeEntropy(): number {
  if (entropyAt === entropy.length) {
    crypto.getRandomValues(entropy);
    entropyAt = 0;
  }
  const at = entropyAt;
  entropyAt += 16;
  return at;
}

/** The uuid text of the pool's 16 bytes at `at` (their version written already), with the RFC variant. */
function uuidOf(at: number): string {
  entropy[at + 8] = (entropy[at + 8] & 0x3f) | 0x80; // variant 10xx (RFC 9562)
  for (let i = 0; i < 16; i++) {
    const byte = entropy[at + i];
    uuidText[DIGITS_AT[i]] = HEX_DIGITS[2 * byte];
    uuidText[DIGITS_AT[i] + 1] = HEX_DIGITS[2 * byte + 1];
  }
  return latin1Decode(uuidText);
}

let orderedMs = -1;
let orderedCount = 0;

/**
 * A time-ordered uuid (version 7, RFC 9562 §5.7: inside the contract's rule) for runs and batches: the creation's
 * milliseconds first, then a count within that millisecond (12 bits, from a random start below 2048, so the
 * uuids of one batch follow each other), then 62 random bits. Their SQL tables are keyed and indexed by these
 * uuids (the runs' and batches' own, the runs' `batchUuid`, the logs' and spans' `runUuid`): new ones go at the
 * end of each index instead of anywhere in it, and the oldest, which the bound removes, are together at its
 * start. A workspace at its bound of 100 000 runs cost the SQL worker 74–76 µs per created run with random
 * uuids, 50–53 µs with ordered ones (`npm run bench:catch-up`, whose uuids were ordered already).
 */
export function nextTimeOrderedUuid(createdAtMs: number): string {
  const at = takeEntropy();
  const ms = Math.max(0, Math.min(Math.floor(createdAtMs), 2 ** 48 - 1));
  // A new millisecond (or a clock set back, or 4 096 in one) starts the count again, at random.
  if (ms === orderedMs && orderedCount < 0xfff) orderedCount += 1;
  else {
    orderedMs = ms;
    orderedCount = ((entropy[at + 6] << 8) | entropy[at + 7]) & 0x7ff;
  }
  const high = Math.floor(ms / 2 ** 16);
  entropy[at] = (high >>> 24) & 0xff;
  entropy[at + 1] = (high >>> 16) & 0xff;
  entropy[at + 2] = (high >>> 8) & 0xff;
  entropy[at + 3] = high & 0xff;
  entropy[at + 4] = (ms >>> 8) & 0xff;
  entropy[at + 5] = ms & 0xff;
  entropy[at + 6] = 0x70 | (orderedCount >>> 8); // version 7
  entropy[at + 7] = orderedCount & 0xff;
  return uuidOf(at);
}
