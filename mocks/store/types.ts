import type { components } from '../../generators/generated/openapi';
import { TERMINAL_STATUSES as CONTRACT_TERMINAL_STATUSES } from '../../spec/lib/constants';
/** Resource objects as the contract shows them; fields beyond these are open (x-rules unknown-fields-ignored). */
export type JsonRecord = Record<string, unknown>;

/** The contract's own Suppression (generated from spec/openapi.yaml): a change there is a type error here. */
export type Suppression = components['schemas']['Suppression'];

/** Where a run is in its life; the status is derived from these and the clock, so it only moves forward. */
export type RunRecord = {
  uuid: string;
  workspaceUuid: string;
  workflowUuid: string | null;
  releaseUuid: string | null;
  batchUuid: string | null;
  parentUuid: string | null;
  parentBatchUuid: string | null;
  parentNodeUuid: string | null;
  recordId: string | null;
  recordTitle: string | null;
  isGroupParent: boolean;
  createdAtMs: number;
  /** Seeded history has a fixed status; created runs move with the clock. */
  fixedStatus?: RunStatus;
  finishedAtMs?: number;
  durationMs: number;
  /** The terminal status reached when the run finishes (forced through `Prefer: outcome` or the control plane). */
  outcome: components['schemas']['TerminalRunStatus'];
  cancelRequestedAtMs?: number;
};

export type RunStatus = components['schemas']['RunStatus'];
export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(CONTRACT_TERMINAL_STATUSES);

export type BatchRecord = {
  uuid: string;
  workspaceUuid: string;
  workflowUuid: string | null;
  createdAtMs: number;
  durationMs: number;
  fixedStatus?: string;
  finishedAtMs?: number;
  runUuids: string[];
  /** Where a batch without runs ends (default `success`). */
  outcome?: string;
  /** Counts kept as runs are added and cancelled, so a batch's status never walks its runs. */
  tally?: BatchTally;
};

/**
 * What a batch's status needs from its runs. Runs of one batch are created together with one duration, so the
 * runs not cancelled all finish at `liveFinishAt`.
 */
export type BatchTally = {
  runs: number;
  cancelled: number;
  /** Runs not cancelled whose outcome is `error`. */
  liveErrors: number;
  /**
   * Runs not cancelled whose forced outcome is `cancelled` or `skipped` (`success` is what is left). Absent from a
   * tally stored before they were counted: none.
   */
  liveCancelled?: number;
  liveSkipped?: number;
  liveFinishAt: number;
  /** Latest moment a cancelled run reaches `cancelled`. */
  cancelledFinishAt: number;
  /** Earliest moment a run leaves `pending`. */
  pendingUntil: number;
};

export type LogRow = {
  uuid: string;
  workspaceUuid: string;
  runUuid: string;
  level: string;
  message: string;
  createdAt: string;
};
export type RecordRow = {
  id: string;
  workspaceUuid: string;
  modelUuid: string | null;
  title: string | null;
  createdAt: string;
};
export type SpanRow = {
  uuid: string;
  workspaceUuid: string;
  runUuid: string;
  parentSpanUuid: string | null;
  name: string;
  startedAt: string;
  endedAt: string | null;
  durationMs: number | null;
};

/** Filters of listRecipes read fields the Recipe does not show; they live beside it. */
export type RecipeEntry = { recipe: JsonRecord; uiType: 'ai' | 'js'; category: string };
export type AllocationEntry = { allocation: JsonRecord; territoryUuid: string };

export type WorkspaceState = {
  workspaceUuid: string;
  /** The user the workspace's tokens act as. */
  userUuid: string;
  workspace: JsonRecord;
  suppressions: Suppression[];
  mcpServers: Map<string, JsonRecord>;
  workflows: Map<string, JsonRecord>;
  models: Map<string, JsonRecord>;
  domains: Map<string, JsonRecord>;
  allocations: AllocationEntry[];
  envVars: Map<string, JsonRecord>;
  recipes: RecipeEntry[];
  runs: Map<string, RunRecord>;
  /** Approximate bytes of the runs kept (see limits: runBytesPerWorkspace). */
  runBytes?: number;
  batches: Map<string, BatchRecord>;
  logs: LogRow[];
  records: RecordRow[];
  spans: SpanRow[];
};

/** Collections kept as one hash per workspace, an entry per uuid. */
export type Collection = 'mcpServers' | 'workflows' | 'models' | 'domains' | 'envVars' | 'runs' | 'batches';
export type EntryOf<C extends Collection> = C extends 'runs'
  ? RunRecord
  : C extends 'batches'
    ? BatchRecord
    : JsonRecord;
/** Lists the API only reads, kept as one JSON value each. */
export type FixedList = 'suppressions' | 'allocations' | 'recipes';
export type FixedListOf<L extends FixedList> = L extends 'suppressions'
  ? Suppression[]
  : L extends 'allocations'
    ? AllocationEntry[]
    : RecipeEntry[];

/** Collections a fixture file may replace; each one given replaces the seeded one whole. */
export type WorkspaceFixture = Partial<Pick<WorkspaceState, 'workspace' | FixedList | Collection>>;

export type StoreLimits = {
  /** Runs created through the API per workspace (oldest out first, with the rows of logs and spans beyond theirs). */
  runsPerWorkspace: number;
  batchesPerWorkspace: number;
  /**
   * Runs and batches created through the API are kept this long after their creation, then removed with their
   * log and span rows (age bound, beside the count bound). Seeded and fixture runs are fixed data and stay.
   */
  runTtlMs: number;
  mcpServersPerWorkspace: number;
  /** Downloads kept at once per workspace (its oldest out first), each for this long, and their bytes per workspace. */
  downloadsPerWorkspace: number;
  downloadTtlMs: number;
  downloadBytesPerWorkspace: number;
  /** Bytes of created MCP servers per workspace (oldest created out first). */
  mcpServerBytesPerWorkspace: number;
};
