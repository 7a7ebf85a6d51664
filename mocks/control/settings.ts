import Ajv2020 from 'ajv/dist/2020';
import { describeSchemaError } from '../../spec/lib/schemas';
import { FAULTS, MAX_DURATION_MS, OUTCOMES, type Fault, type Outcome } from '../prefer';
import { MAX_RATE_LIMIT } from '../limits';
import { MAX_LATENCY_MS } from '../stages/latency';
import { CONTROL_LIMITS } from '../limits';
import type { OperationId } from './client';

/** Longest a `hang` fault holds a connection before dropping it. */
export const MAX_HANG_MS = 5 * 60_000;

/** A fault for a share of the requests of one operation (all operations when none is named), in one workspace or all. */
export type FaultRule = { operation?: OperationId; fault: Fault; share: number; workspace?: string };
/**
 * One workspace's own settings, over the defaults: set by its tenant (or the admin). Its fault rules apply to its
 * requests only.
 */
export type WorkspaceSettings = {
  outcome?: Outcome;
  runDurationMs?: number;
  rateLimit?: number;
  latencyMs?: number;
  hangMs?: number;
  faults?: FaultRule[];
};

/** What the control plane changes while the mock runs; everything else is fixed at start. */
export type RuntimeSettings = {
  rateLimit: number;
  /** Requests per window to the OAuth endpoints, per client address. */
  authRateLimit: number;
  latencyMs: number;
  runDurationMs: number;
  /** How long `fault=hang` holds the connection before dropping it. */
  hangMs: number;
  /** Per workspace uuid: the outcome and duration of the runs it creates. */
  workspaces: Record<string, WorkspaceSettings>;
  faults: FaultRule[];
};

/**
 * A change: workspaces by token or uuid (null clears one, a null field clears it), fault rules with `share` 1 by
 * default; `outcome` is the caller's own workspace's (a tenant's change).
 */
export type SettingsPatch = Partial<Omit<RuntimeSettings, 'workspaces' | 'faults'>> & {
  outcome?: Outcome | null;
  workspaces?: Record<string, { outcome?: Outcome | null; runDurationMs?: number | null } | null>;
  faults?: (Omit<FaultRule, 'share'> & { share?: number })[];
};

/**
 * The integer range of each number the control plane sets (the README's settings table states the same), so a
 * typo such as `rateLimit: 1e308` is a 400 naming the setting, never a setting the mock cannot honour.
 */
export const SETTING_RANGES = {
  rateLimit: { minimum: 1, maximum: MAX_RATE_LIMIT },
  authRateLimit: { minimum: 1, maximum: MAX_RATE_LIMIT },
  latencyMs: { minimum: 0, maximum: MAX_LATENCY_MS },
  runDurationMs: { minimum: 0, maximum: MAX_DURATION_MS },
  hangMs: { minimum: 0, maximum: MAX_HANG_MS },
} as const satisfies Record<keyof Omit<RuntimeSettings, 'workspaces' | 'faults'>, object>;

const ranged = Object.fromEntries(
  Object.entries(SETTING_RANGES).map(([name, range]) => [name, { type: 'integer', ...range }]),
);
const duration = ranged.runDurationMs;
const PATCH_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...ranged,
    outcome: { enum: [...OUTCOMES, null] },
    workspaces: {
      type: 'object',
      maxProperties: CONTROL_LIMITS.workspaces,
      additionalProperties: {
        type: ['object', 'null'],
        additionalProperties: false,
        properties: {
          outcome: { enum: [...OUTCOMES, null] },
          runDurationMs: { ...duration, type: ['integer', 'null'] },
        },
      },
    },
    faults: {
      type: 'array',
      maxItems: 100,
      items: {
        type: 'object',
        required: ['fault'],
        additionalProperties: false,
        properties: {
          operation: { type: 'string' },
          fault: { enum: [...FAULTS] },
          share: { type: 'number', minimum: 0, maximum: 1 },
          workspace: { type: 'string' },
        },
      },
    },
  },
};

const validatePatch = new Ajv2020({ strict: false, allErrors: true }).compile(PATCH_SCHEMA);

/** Problems with a settings change, one line each (empty when it can be applied). */
export function checkSettingsPatch(patch: unknown): string[] {
  if (validatePatch(patch)) return [];
  return (validatePatch.errors ?? []).map((error) => describeSchemaError(error, 'settings'));
}
