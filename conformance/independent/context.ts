/**
 * What every part of the independent server shares: its settings (the readings of the open points, the broken
 * switches), its state in memory, and its one error type. Built once per server by `createContext`.
 */
import type { Database, SqlJsStatic } from 'sql.js';
import type { ValidateOptions } from './validate';
import type { Switch } from './variants';

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

export const TOKEN_A = 'indie-token-a-7Qx2';
export const TOKEN_B = 'indie-token-b-9Kp4';
export const TOKENS: Record<string, 'a' | 'b'> = { [TOKEN_A]: 'a', [TOKEN_B]: 'b' };

export type Run = {
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
export type Batch = {
  uuid: string;
  workspaceUuid: string;
  workflowUuid: string | null;
  runs: string[];
  createdAt: number;
  seenTerminal?: boolean;
};
export type Workspace = {
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
/** A first response kept for its Idempotency-Key. */
export type Answer = { status: number; headers: Record<string, string>; body: unknown };
export type Stored = {
  fingerprint: string;
  expires: number;
  /** Set once the first request has answered. */
  answer?: Answer;
  waiters: Array<(answer: Answer) => void>;
};

/**
 * The contract's facts as this server's team typed them (status sets, header names, bounds). They stay in
 * server.ts, the one file of this folder that names them on purpose (scripts/lib/facts), and reach the rest here.
 */
export type Facts = {
  runStatuses: string[];
  terminal: string[];
  /** The bound of Idempotency-Key and of the names this server stores. */
  keyMaxLength: number;
  nameMaxLength: number;
  idempotencyTtlMs: number;
  remainingHeader: string;
  rateLimitHeaders(limit: number, remaining: number, reset: number, window: number): Record<string, string>;
};

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const iso = (ms: number) => new Date(ms).toISOString();

export type Context = {
  readings: Readings;
  facts: Facts;
  /** Every switch the server was started with (hand-written, generated, validation rules). */
  mutations: ReadonlySet<string>;
  /** Whether a switch is on. */
  broken(id: Switch): boolean;
  validation: ValidateOptions;
  limit: number;
  windowMs: number;
  runDurationMs: number;
  sql: SqlJsStatic;
  workspaces: { a: Workspace; b: Workspace };
  runs: Map<string, Run>;
  batches: Map<string, Batch>;
  /** Run exports by id: the owning workspace and the runs selected when it was made (the oldest forgotten past 1000). */
  exportFiles: Map<string, { workspaceUuid: string; runs: string[] }>;
  hits: Map<string, number[]>;
  keys: Map<string, Stored>;
  /** A broken SQL endpoint keeps one database for everybody and lets writes stay. */
  shared: { db?: Database; synced: Set<string> };
};

export function createContext(
  options: IndependentOptions,
  facts: Facts,
  sql: SqlJsStatic,
  workspaces: Context['workspaces'],
): Context {
  const mutations = new Set(options.mutations ?? []);
  const broken = (id: Switch) => mutations.has(id);
  return {
    readings: { ...DEFAULT_READINGS, ...options.readings },
    facts,
    mutations,
    broken,
    validation: {
      off: mutations,
      lengths: broken('length-in-utf16') ? 'utf16' : 'code-points',
      // Off-by-one bounds: `loose <rule key>`.
      loose: new Set([...mutations].filter((m) => m.startsWith('loose ')).map((m) => m.slice('loose '.length))),
    },
    limit: options.rateLimit ?? 600,
    windowMs: (options.windowSeconds ?? 10) * 1000,
    runDurationMs: options.runDurationMs ?? 700,
    sql,
    workspaces,
    runs: new Map(),
    batches: new Map(),
    exportFiles: new Map(),
    hits: new Map(),
    keys: new Map(),
    shared: { synced: new Set() },
  };
}

/** A run the server holds (its batches and exports name only runs it made). */
export function runOf(ctx: Context, uuid: string): Run {
  const run = ctx.runs.get(uuid);
  if (!run) throw new Error(`independent server: run ${uuid} is named but not held`);
  return run;
}
