/**
 * The shapes of the control plane's settings and of what one request is steered by: types only, imported by the
 * control plane that changes them, the store that keeps them and the stages that read them (so none of those
 * imports another for a type).
 */
import type { Fault, Outcome } from '../prefer';
import type { OperationId } from './client';

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

/** What one request is steered by: its workspace's settings over the defaults, and the fault rules that apply. */
export type Steering = Omit<RuntimeSettings, 'workspaces'> & { outcome?: WorkspaceSettings['outcome'] };

/** The defaults as stored: the settings in force for every workspace without settings of its own. */
export type Defaults = Omit<RuntimeSettings, 'workspaces'>;
