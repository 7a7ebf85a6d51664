import { colleaguesOf, ownerOf } from './people';
import { viewRun } from './runs';
import type { JsonRecord, RunRecord, WorkspaceState } from './types';

/** The recipe filters of listRecipes read these; seeded recipes show them, so a screen can tell why one matched. */
type RecipeFields = { uiType: string; category: string };

/**
 * Makes the seed hold together: every id it mentions resolves. A workflow's `lastBatch` is one of its batches,
 * a model's `lastRun` a run on one of its records, an allocation's `workflowRunUuid` a run of its workflow, and
 * recipe authors are the workspace's owner (named as the OAuth user) or a few colleagues.
 */
export function linkSeed(state: WorkspaceState, seed: number): void {
  const runs = [...state.runs.values()];
  const view = (run: RunRecord) => viewRun(run, run.finishedAtMs ?? run.createdAtMs);
  const summary = (run: RunRecord) => {
    const { uuid, status, createdAt, finishedAt } = view(run);
    return { uuid, status, errorMessage: status === 'error' ? 'The run failed.' : null, createdAt, finishedAt };
  };

  for (const workflow of state.workflows.values()) {
    const batch = [...state.batches.values()].filter((b) => b.workflowUuid === workflow.uuid).at(-1);
    workflow.lastBatch = batch
      ? {
          uuid: batch.uuid,
          status: batch.fixedStatus ?? 'success',
          runsStatus: 'healthy',
          errorMessage: null,
          createdAt: iso(batch.createdAtMs),
          finishedAt: iso(batch.finishedAtMs),
        }
      : null;
  }

  const modelOfRecord = new Map(state.records.map((record) => [record.id, record.modelUuid]));
  for (const model of state.models.values()) {
    const run = runs.filter((r) => r.recordId !== null && modelOfRecord.get(r.recordId) === model.uuid).at(-1);
    model.lastRun = run ? summary(run) : null;
  }

  state.allocations.forEach(({ allocation }, i) => {
    const by = allocation.allocatedBy as JsonRecord;
    const recordId = state.records[i % state.records.length]?.id ?? null;
    const ofWorkflow = runs.filter((r) => r.workflowUuid === by.workflowUuid);
    const run = ofWorkflow.find((r) => r.recordId === recordId) ?? ofWorkflow[0];
    by.workflowRunUuid = run?.uuid ?? null;
    by.recordId = recordId;
    allocation.recordIds = recordId === null ? [] : [recordId];
  });

  const owner = ownerOf(state.workspaceUuid, state.userUuid);
  const colleagues = colleaguesOf(state.workspaceUuid, seed);
  state.recipes.forEach((entry, i) => {
    const author = entry.recipe.userUuid === state.userUuid ? owner : colleagues[i % colleagues.length];
    const fields: RecipeFields = { uiType: entry.uiType, category: entry.category };
    Object.assign(entry.recipe, fields, {
      userUuid: author.uuid,
      userFirstName: author.firstName,
      userLastName: author.lastName,
    });
  });
}

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
