import Ajv2020 from 'ajv/dist/2020';
import { describeSchemaError } from '../../spec/lib/schemas';
import { FAULTS, MAX_DURATION_MS, OUTCOMES, type Outcome } from '../prefer';
import { CONTROL_LIMITS, MAX_LATENCY_MS, MAX_RATE_LIMIT } from '../limits';
import type { FaultRule, RuntimeSettings } from './settings-types';

export type { FaultRule, RuntimeSettings, WorkspaceSettings } from './settings-types';

/** Longest a `hang` fault holds a connection before dropping it. */
export const MAX_HANG_MS = 5 * 60_000;

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
