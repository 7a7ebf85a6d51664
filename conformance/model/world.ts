/**
 * The abstract model: what the description states about the target's state, as far as the commands have seen it.
 * Records and their workspace, every key's first request and outcome, jobs and their terminal statuses, what a
 * write said it changed (the records beneath a job), and the rate-limit counter's last reading per tenant.
 */
import type { Exchange } from '../lib/http-client';

export type Tenant = 'a' | 'b';

export const other = (tenant: Tenant): Tenant => (tenant === 'a' ? 'b' : 'a');

/** A record a create answered, with the request that made it. */
export type RecordModel = {
  uuid: string;
  tenant: Tenant;
  /** Index into the roles' creates. */
  create: number;
  body: Record<string, unknown>;
  /** The Idempotency-Key it was created with, if any, and the answer the key must replay. */
  key?: string;
  status: number;
  response: unknown;
  location?: string;
  /** The first terminal status a read showed: final from then on. */
  terminal?: string;
  /** What its read-backs counted last (its own rows, the rows beneath it): a replay must not add to them. */
  counts?: Array<number | undefined>;
  exchange: Exchange;
};

export type WorldModel = {
  records: RecordModel[];
  /** Keys whose request failed (4xx): nothing was created; the key is free again or names the failure. */
  failedKeys: Array<{ key: string; tenant: Tenant; create: number; body: unknown }>;
  /** Requests the model may still send in this execution (its share of the run's budget). */
  allowance: number;
  /** What one execution learns for the others of the run: the quota lies beyond the model's share. */
  phase: { quotaBeyondShare?: boolean };
};

export function recordsOf(model: Readonly<WorldModel>, tenant?: Tenant): RecordModel[] {
  return tenant ? model.records.filter((r) => r.tenant === tenant) : model.records;
}

export function pick<T>(items: readonly T[], index: number): T | undefined {
  return items.length === 0 ? undefined : items[index % items.length];
}
