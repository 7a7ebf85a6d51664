/** The independent server's seed: two workspaces of a few records each, and one finished run per workspace. */
import { randomUUID } from 'node:crypto';
import { iso, type Run, type Workspace } from './context';

export const REASONS = ['unsubscribed', 'bounced', 'complained', 'manual'];

type Records = Map<string, Record<string, unknown>>;

function seedSuppressions(label: 'a' | 'b', uuid: string, now: number): Workspace['suppressions'] {
  return Array.from({ length: 37 }, (_, i) => ({
    uuid: randomUUID(),
    workspaceUuid: uuid,
    email: `person${i}.${label}@example.org`,
    reason: REASONS[(i * 7) % 4],
    mailboxUuid: i % 3 === 0 ? null : randomUUID(),
    messageUuid: i % 2 === 0 ? null : randomUUID(),
    createdAt: iso(now - i * 60_000),
    updatedAt: iso(now - i * 30_000),
  }));
}

/** Two workflows and two models. */
function seedWorkflowsAndModels(uuid: string, now: number): { workflows: Records; models: Records } {
  const workflows: Records = new Map();
  const models: Records = new Map();
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
  return { workflows, models };
}

export function seedWorkspace(label: 'a' | 'b'): Workspace {
  const uuid = randomUUID();
  const now = Date.now();
  const suppressions = seedSuppressions(label, uuid, now);
  const { workflows, models } = seedWorkflowsAndModels(uuid, now);
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

/** One finished run per workspace, of its first workflow, so the SQL endpoint can name a workflow. */
export function seedRuns(workspaces: Workspace[]): Run[] {
  return workspaces.map((ws) => {
    const at = Date.now() - 3_600_000;
    return {
      uuid: randomUUID(),
      workspaceUuid: ws.uuid,
      recordId: 'seed',
      recordTitle: 'Seeded run',
      workflowUuid: [...ws.workflows.keys()][0],
      batchUuid: null,
      createdAt: at,
      finishAt: at + 1000,
    };
  });
}
