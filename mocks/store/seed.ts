import { TERMINAL_STATUSES } from '../../spec/lib/constants';
import { createPrng, hashString, type Prng } from './prng';
import { linkSeed } from './seed-links';
import type {
  AllocationEntry,
  BatchRecord,
  JsonRecord,
  LogRow,
  RecipeEntry,
  RecordRow,
  RunRecord,
  RunStatus,
  SpanRow,
  Suppression,
  WorkspaceState,
} from './types';

/** Seeded history starts here, so the same seed gives byte-identical data whatever the day. */
const SEED_EPOCH = Date.UTC(2026, 0, 5, 9, 0, 0);
const MINUTE = 60_000;

export const SEED_COUNTS = {
  suppressions: 30,
  mcpServers: 2,
  workflows: 3,
  models: 3,
  domains: 3,
  allocations: 12,
  envVars: 5,
  recipes: 12,
  runs: 24,
  batches: 3,
};

const SUPPRESSION_REASONS = ['unsubscribed', 'bounced', 'complained', 'manual'] as const;
const FIRST_NAMES = ['ada', 'grace', 'alan', 'edsger', 'barbara', 'ken', 'margaret', 'linus', 'radia', 'donald'];
const DOMAINS = ['example.com', 'example.org', 'example.net'];
const RECIPE_CATEGORIES = ['other', 'classification', 'cleaning', 'marketing', 'sales', 'event', 'copywriting'];
/** Seeded history ends in the terminal statuses, success three times as often as each other one. */
const HISTORY_STATUSES = (TERMINAL_STATUSES as readonly RunStatus[]).flatMap((status) =>
  status === 'success' ? [status, status, status] : [status],
);

const at = (minutes: number) => new Date(SEED_EPOCH + minutes * MINUTE).toISOString();

/**
 * The seeded state of one workspace. Every part draws from one generator in a fixed order, so the same seed gives
 * the same ids (the start banner and the docs quote them); keep the order of the calls below.
 */
export function seedWorkspace(workspaceUuid: string, seed: number): WorkspaceState {
  const rng = createPrng(hashString(`${seed}:${workspaceUuid}`));
  const owner: Owner = { rng, workspaceUuid, userUuid: rng.uuid(), suffix: workspaceUuid.slice(0, 4) };
  const suppressions = seedSuppressions(owner);
  const workflows = seedWorkflows(owner);
  const models = seedModels(owner);
  const domains = seedDomains(owner);
  const allocations = seedAllocations(owner, [...workflows.keys()], [...models.keys()]);
  const envVars = seedEnvVars(owner);
  const recipes = seedRecipes(owner);
  const batches = seedBatches(owner, [...workflows.keys()]);
  const { runs, logs, spans, records } = seedRunHistory(owner, batches, [...workflows.keys()], [...models.keys()]);
  const mcpServers = seedMcpServers(owner);
  const workspace = seedWorkspaceRecord(owner);
  const state: WorkspaceState = {
    workspaceUuid,
    userUuid: owner.userUuid,
    workspace,
    suppressions,
    mcpServers,
    workflows,
    models,
    domains,
    allocations,
    envVars,
    recipes,
    runs,
    batches,
    logs,
    records,
    spans,
  };
  linkSeed(state, seed);
  return state;
}

/** What every part of a workspace's seed shares: the generator, the workspace, its user and a short suffix. */
type Owner = { rng: Prng; workspaceUuid: string; userUuid: string; suffix: string };

/** Suppressions, every reason in turn. */
function seedSuppressions(owner: Owner) {
  const { rng, workspaceUuid } = owner;
  const suppressions: Suppression[] = Array.from({ length: SEED_COUNTS.suppressions }, (_, i) => ({
    uuid: rng.uuid(),
    workspaceUuid,
    email: `${rng.pick(FIRST_NAMES)}.${i}@${rng.pick(DOMAINS)}`,
    reason: SUPPRESSION_REASONS[i % SUPPRESSION_REASONS.length],
    mailboxUuid: rng.bool(0.7) ? rng.uuid() : null,
    messageUuid: rng.bool(0.5) ? rng.uuid() : null,
    createdAt: at(i * 7),
    updatedAt: at(i * 7 + rng.int(5)),
  }));
  return suppressions;
}

/** Workflows with nodes and a deployed release. */
function seedWorkflows(owner: Owner) {
  const { rng, workspaceUuid, userUuid } = owner;
  const workflows = new Map<string, JsonRecord>();
  for (let i = 0; i < SEED_COUNTS.workflows; i++) {
    const workflow = seedWorkflow(rng, workspaceUuid, userUuid, i);
    workflows.set(workflow.uuid as string, workflow);
  }
  return workflows;
}

/** Storage models. */
function seedModels(owner: Owner) {
  const { rng, workspaceUuid } = owner;
  const models = new Map<string, JsonRecord>();
  for (let i = 0; i < SEED_COUNTS.models; i++) {
    const model = seedModel(rng, workspaceUuid, i);
    models.set(model.uuid as string, model);
  }
  return models;
}

/** Managed mail domains, pending, with their DNS records. */
function seedDomains(owner: Owner) {
  const { rng, workspaceUuid, userUuid, suffix } = owner;
  const domains = new Map<string, JsonRecord>();
  for (let i = 0; i < SEED_COUNTS.domains; i++) {
    const uuid = rng.uuid();
    const name = `mail-${suffix}-${i}.example.com`;
    domains.set(uuid, {
      uuid,
      workspaceUuid,
      userUuid,
      billingUsageUuid: rng.uuid(),
      name,
      status: 'pending',
      registrar: 'registrar',
      meta: {},
      dnsRecords: [
        { type: 'MX', name, value: `mx.${name}`, ttl: 3600, priority: 10 },
        { type: 'TXT', name, value: 'v=spf1 -all', ttl: 3600, priority: 0 },
      ],
      verification: [{ type: 'TXT', name: `_verify.${name}`, value: rng.uuid(), ttl: 300, priority: 0 }],
      redirectUrl: `https://www.${name}`,
      dmarcEmail: `dmarc@${name}`,
      dmarcPolicy: 'none',
      verifiedAt: null,
      expiresAt: at(365 * 24 * 60 + i),
      renewalChargedUntil: null,
      priceCredits: 100 + rng.int(50) * 10,
      autoRenew: true,
      createdAt: at(i * 60),
      updatedAt: at(i * 60),
      deletedAt: null,
    });
  }
  return domains;
}

/** Allocations over a few members, capacities and territories. */
function seedAllocations(owner: Owner, workflowUuids: string[], modelUuids: string[]) {
  const { rng, workspaceUuid } = owner;
  const members = Array.from({ length: 4 }, () => rng.uuid());
  const capacities = Array.from({ length: 2 }, () => rng.uuid());
  const territories = Array.from({ length: 2 }, () => rng.uuid());
  const allocations: AllocationEntry[] = Array.from({ length: SEED_COUNTS.allocations }, (_, i) => {
    const memberUuid = members[i % members.length];
    return {
      territoryUuid: territories[i % territories.length],
      allocation: {
        uuid: rng.uuid(),
        memberUuid,
        workspaceUuid,
        capacityUuid: capacities[i % capacities.length],
        isFallbackMember: i % 5 === 0,
        allocatedBy: {
          allocator: 'workflow',
          workflowUuid: workflowUuids[i % workflowUuids.length],
          workflowNodeUuid: rng.uuid(),
          membersUuids: members,
          workflowRunUuid: rng.uuid(),
          fallbackMemberUuid: members[0],
          modelUuid: modelUuids[i % modelUuids.length],
          recordId: `rec-${i}`,
        },
        recordIds: [`rec-${i}`],
        allocatedAt: at(i * 11),
        syncedAt: at(i * 11 + 1),
        createdAt: at(i * 11),
        updatedAt: at(i * 11 + 1),
        deletedAt: null,
      },
    };
  });
  return allocations;
}

/** Environment variables (only their ids are shown). */
function seedEnvVars(owner: Owner) {
  const { rng } = owner;
  const envVars = new Map<string, JsonRecord>();
  for (let i = 0; i < SEED_COUNTS.envVars; i++) {
    const uuid = rng.uuid();
    envVars.set(uuid, { uuid });
  }
  return envVars;
}

/** Expression recipes, the workspace's own and public ones. */
function seedRecipes(owner: Owner) {
  const { rng, workspaceUuid, userUuid, suffix } = owner;
  const recipes: RecipeEntry[] = Array.from({ length: SEED_COUNTS.recipes }, (_, i) => {
    const own = i % 3 !== 0;
    return {
      uiType: i % 2 === 0 ? 'js' : 'ai',
      category: RECIPE_CATEGORIES[i % RECIPE_CATEGORIES.length],
      recipe: {
        uuid: rng.uuid(),
        shortId: `r${suffix}${i}`,
        version: 1 + rng.int(3),
        workspaceUuid,
        name: `Recipe ${i} ${rng.pick(['clean names', 'score lead', 'split domain', 'format phone', 'guess title'])}`,
        description: 'Turns a column into a cleaner one.',
        expression: `{{ record.field_${i} | trim }}`,
        isPublic: !own,
        isBlacklisted: false,
        isFavorite: i % 4 === 0,
        archivedAt: null,
        placeholders: [{ slug: 'field', name: 'Field', description: 'Column to read.' }],
        userUuid: own ? userUuid : rng.uuid(),
        userFirstName: 'Ada',
        userLastName: 'Lovelace',
        userPicture: null,
      },
    };
  });
  return recipes;
}

/** Finished batches; their runs are added by seedRunHistory. */
function seedBatches(owner: Owner, workflowUuids: string[]) {
  const { rng, workspaceUuid } = owner;
  const batches = new Map<string, BatchRecord>();
  for (let i = 0; i < SEED_COUNTS.batches; i++) {
    const uuid = rng.uuid();
    batches.set(uuid, {
      uuid,
      workspaceUuid,
      workflowUuid: workflowUuids[i % workflowUuids.length],
      createdAtMs: SEED_EPOCH + i * 90 * MINUTE,
      durationMs: 5 * MINUTE,
      fixedStatus: 'success',
      finishedAtMs: SEED_EPOCH + (i * 90 + 5) * MINUTE,
      runUuids: [],
    });
  }
  return batches;
}

/** Finished runs with their logs, spans and records (the SQL tables). */
function seedRunHistory(
  owner: Owner,
  batches: Map<string, BatchRecord>,
  workflowUuids: string[],
  modelUuids: string[],
) {
  const { rng, workspaceUuid } = owner;
  const batchUuids = [...batches.keys()];
  const runs = new Map<string, RunRecord>();
  const logs: LogRow[] = [];
  const spans: SpanRow[] = [];
  const records: RecordRow[] = [];
  for (let i = 0; i < SEED_COUNTS.runs; i++) {
    const status = HISTORY_STATUSES[i % HISTORY_STATUSES.length];
    const batchUuid = i % 4 === 0 ? batchUuids[i % batchUuids.length] : null;
    const createdAtMs = SEED_EPOCH + i * 13 * MINUTE;
    const durationMs = (1 + rng.int(30)) * 1000;
    const recordId = `rec-${i % 10}`;
    const run: RunRecord = {
      uuid: rng.uuid(),
      workspaceUuid,
      workflowUuid: workflowUuids[i % workflowUuids.length],
      releaseUuid: rng.uuid(),
      batchUuid,
      parentUuid: null,
      parentBatchUuid: batchUuid,
      parentNodeUuid: null,
      recordId,
      recordTitle: `Record ${i % 10}`,
      isGroupParent: i % 8 === 0,
      createdAtMs,
      fixedStatus: status,
      finishedAtMs: createdAtMs + durationMs,
      durationMs,
      outcome: status === 'error' || status === 'skipped' ? status : 'success',
    };
    runs.set(run.uuid, run);
    if (batchUuid) batches.get(batchUuid)?.runUuids.push(run.uuid);
    logs.push(
      {
        uuid: rng.uuid(),
        workspaceUuid,
        runUuid: run.uuid,
        level: 'info',
        message: 'run started',
        createdAt: new Date(createdAtMs).toISOString(),
      },
      {
        uuid: rng.uuid(),
        workspaceUuid,
        runUuid: run.uuid,
        level: status === 'error' ? 'error' : 'info',
        message: `run ${status}`,
        createdAt: new Date(createdAtMs + durationMs).toISOString(),
      },
    );
    const rootSpan = rng.uuid();
    spans.push(
      {
        uuid: rootSpan,
        workspaceUuid,
        runUuid: run.uuid,
        parentSpanUuid: null,
        name: 'run',
        startedAt: new Date(createdAtMs).toISOString(),
        endedAt: new Date(createdAtMs + durationMs).toISOString(),
        durationMs,
      },
      {
        uuid: rng.uuid(),
        workspaceUuid,
        runUuid: run.uuid,
        parentSpanUuid: rootSpan,
        name: 'node',
        startedAt: new Date(createdAtMs).toISOString(),
        endedAt: new Date(createdAtMs + durationMs - 1).toISOString(),
        durationMs: durationMs - 1,
      },
    );
    if (i < 10)
      records.push({
        id: recordId,
        workspaceUuid,
        modelUuid: modelUuids[i % modelUuids.length],
        title: `Record ${i}`,
        createdAt: at(i),
      });
  }
  return { runs, logs, spans, records };
}

/** MCP servers with one tool action and the sandbox capability. */
function seedMcpServers(owner: Owner) {
  const { rng, workspaceUuid, userUuid } = owner;
  const mcpServers = new Map<string, JsonRecord>();
  for (let i = 0; i < SEED_COUNTS.mcpServers; i++) {
    const uuid = rng.uuid();
    mcpServers.set(uuid, {
      uuid,
      workspaceUuid,
      userUuid,
      name: `Server ${i}`,
      description: 'Exposes workflows as tools.',
      actions: [
        {
          kind: 'tool',
          name: 'Enrich',
          slug: 'enrich',
          description: 'Enrich a record.',
          isBulkAllowed: false,
          config: {},
          toolUuid: rng.uuid(),
          templateSlug: null,
          waitUntilFinished: true,
        },
      ],
      resources: [],
      capabilities: [{ slug: 'sandbox', config: { scope: 'chat' } }],
      folderUuid: rng.uuid(),
      templateSlug: null,
      isReadOnly: false,
      createdAt: at(i),
      updatedAt: at(i),
      deletedAt: null,
    });
  }
  return mcpServers;
}

/** The workspace itself. */
function seedWorkspaceRecord(owner: Owner) {
  const { workspaceUuid, suffix } = owner;
  const workspace: JsonRecord = {
    uuid: workspaceUuid,
    name: `Workspace ${suffix}`,
    allowedEmailDomains: ['example.com'],
    engineNamespace: `ns-${suffix}`,
    engineTaskQueuePrefix: `tq-${suffix}`,
    vectorStoreId: `vs-${suffix}`,
    syncs: [{ domain: 'connection', engineScheduleWorkflowId: `sync-${suffix}-0`, cron: '0 * * * *' }],
    createdAt: at(0),
    updatedAt: at(0),
    suspendedAt: null,
    logoUrl: null,
    metadata: { mainGoal: ['pipeline'], salesRepCount: '1-10', gtmStackList: [], referralSource: ['search'] },
    browserExtensionMasterAgentUuid: null,
    browserExtensionAvailableAgentUuids: null,
    defaultRoleUuid: null,
    allowedLoginProviders: null,
    ssoIdentifier: null,
    quotaBuckets: {},
  };
  return workspace;
}

function seedWorkflow(rng: Prng, workspaceUuid: string, userUuid: string, i: number): JsonRecord {
  const nodeUuid = rng.uuid();
  const childUuid = rng.uuid();
  return {
    uuid: rng.uuid(),
    workspaceUuid,
    nodes: [
      {
        uuid: nodeUuid,
        slug: 'start',
        nodes: [
          {
            uuid: childUuid,
            slug: 'enrich',
            nodes: [],
            isArchived: false,
            kind: 'native',
            actionSlug: 'enrich',
            name: 'Enrich',
            description: null,
          },
        ],
        isArchived: false,
        kind: 'native',
        actionSlug: 'trigger',
        name: 'Start',
        description: null,
      },
    ],
    createdAt: at(i * 30),
    updatedAt: at(i * 30 + 5),
    deletedAt: null,
    playUuid: rng.uuid(),
    toolUuid: null,
    folderUuid: rng.uuid(),
    template: { slug: `template-${i}`, isAvailable: true, scope: 'public' },
    lastBatch: {
      uuid: rng.uuid(),
      status: 'pending',
      runsStatus: 'healthy',
      errorMessage: null,
      createdAt: at(i * 30 + 6),
      finishedAt: null,
    },
    deployedRelease: {
      uuid: rng.uuid(),
      userUuid,
      description: 'First release',
      version: 1,
      nodes: [
        {
          uuid: nodeUuid,
          slug: 'start',
          config: {},
          childrenUuids: [childUuid],
          fallbackOnFailure: false,
          position: { x: 0, y: 0 },
          kind: 'native',
          actionSlug: 'trigger',
          name: 'Start',
          description: null,
          retry: null,
          fallbackChildUuid: null,
        },
        {
          uuid: childUuid,
          slug: 'enrich',
          config: {},
          childrenUuids: [],
          fallbackOnFailure: false,
          position: { x: 0, y: 120 },
          kind: 'native',
          actionSlug: 'enrich',
          name: 'Enrich',
          description: null,
          retry: { maximumAttempts: 3, initialInterval: 1, backoffCoefficient: 2 },
          fallbackChildUuid: null,
        },
      ],
      formFields: [
        {
          slug: 'email',
          name: 'Email',
          kind: 'string',
          description: 'Address to enrich.',
          placeholder: 'jane@example.com',
          isRequired: true,
        },
      ],
      templateSlug: null,
      deployedAt: at(i * 30 + 5),
      createdAt: at(i * 30 + 4),
    },
  };
}

function seedModel(rng: Prng, workspaceUuid: string, i: number): JsonRecord {
  return {
    uuid: rng.uuid(),
    workspaceUuid,
    slug: `model_${i}`,
    name: `Model ${i}`,
    description: 'Accounts synced from the CRM.',
    datasetUuid: rng.uuid(),
    extractorSlug: 'crm',
    position: { x: i * 200, y: 0 },
    config: {},
    meta: {},
    schedule: { type: 'transform_tool', jobId: `job-${i}` },
    columns: [
      {
        slug: 'id',
        type: 'string',
        label: 'Id',
        kind: 'original',
        originalSlug: 'id',
        properties: [],
        description: null,
      },
      {
        slug: 'name',
        type: 'string',
        label: 'Name',
        kind: 'original',
        originalSlug: 'name',
        properties: [],
        description: null,
      },
    ],
    additionalColumns: [
      { slug: 'score', type: 'number', label: 'Score', kind: 'custom', properties: [], description: 'Computed score.' },
    ],
    idColumnSlug: 'id',
    titleColumnSlug: 'name',
    timeColumnSlug: null,
    unification: { source: 'integration' },
    folderUuid: rng.uuid(),
    playsCount: rng.int(5),
    segmentsCount: rng.int(5),
    isPaused: false,
    lastEmittedAt: at(i * 10),
    createdAt: at(i * 10),
    updatedAt: at(i * 10),
    deletedAt: null,
    lastRun: { uuid: rng.uuid(), status: 'pending', errorMessage: null, createdAt: at(i * 10), finishedAt: null },
    kind: 'connector',
    connectorUuid: rng.uuid(),
  };
}
