import type { ValidateFunction } from 'ajv';
import { schemaProblems } from '../../spec/lib/problems';
import { safeDict, type SafeDict } from '../safety/dict';
import type { WorkspaceFixture } from '../store';
import { createRunRecord } from '../store/runs';
import type { BatchRecord, JsonRecord, RecipeEntry, RunRecord, RunStatus, Suppression } from '../store/types';
import { RECIPE_CATEGORIES, RECIPE_UI_TYPES } from './fixture-types';
import { randomUuid } from '../web/bytes';

export { RECIPE_CATEGORIES, RECIPE_UI_TYPES };

/** Each collection a fixture may give, and the contract schema every item of it must match. */
const COLLECTIONS = {
  suppressions: 'Suppression',
  mcpServers: 'McpServer',
  workflows: 'Workflow',
  models: 'Model',
  domains: 'Domain',
  allocations: 'Allocation',
  envVars: 'EnvironmentVariable',
  recipes: 'Recipe',
  runs: 'Run',
  batches: 'Batch',
} as const;
type Collection = keyof typeof COLLECTIONS;

/** At most this many problems are reported; the first ones are enough to fix a file. */
const MAX_PROBLEMS = 20;

export type FixtureDeps = {
  /** The validator of a contract schema by pointer, e.g. "#/components/schemas/Run". */
  schemaAt: (pointer: string) => ValidateFunction;
  /** A workspace named by its uuid or by one of its tokens → its uuid, or undefined. */
  resolveWorkspace: (ref: string) => string | undefined;
  now: () => number;
};

export type ParsedFixtures = { workspaces: Map<string, WorkspaceFixture>; counts: SafeDict<SafeDict<number>> };

export { parseFixtureText } from './fixture-text';

/**
 * Checks a whole fixture document against the contract's schemas and turns it into store records; nothing is
 * returned unless every item is valid, so a bad file never half-loads.
 *
 * ```yaml
 * workspaces:
 *   mock-token-a:          # a token or a workspace uuid
 *     suppressions: [...]  # each collection given replaces the seeded one
 *     runs: [{ uuid: …, status: running }]
 * ```
 */
export function readFixtures(document: unknown, deps: FixtureDeps): { fixtures?: ParsedFixtures; problems: string[] } {
  const problems: string[] = [];
  const report = (line: string) =>
    void (problems.length < MAX_PROBLEMS && !problems.includes(line) && problems.push(line));
  if (!isRecord(document) || !isRecord(document.workspaces)) {
    return {
      problems: [
        'fixtures: expected an object with `workspaces: { <token or workspace uuid>: { <collection>: [...] } }`.',
      ],
    };
  }
  for (const key of Object.keys(document))
    if (key !== 'workspaces') report(`/${pointerToken(key)}: is not allowed (only \`workspaces\`).`);
  const workspaces = new Map<string, WorkspaceFixture>();
  const counts = safeDict<SafeDict<number>>();
  for (const [ref, given] of Object.entries(document.workspaces)) {
    const at = `/workspaces/${pointerToken(ref)}`;
    const workspaceUuid = deps.resolveWorkspace(ref);
    if (!workspaceUuid) {
      report(`${at}: is neither a token of the mock nor a workspace uuid.`);
      continue;
    }
    if (!isRecord(given)) {
      report(`${at}: must be an object of collections (${Object.keys(COLLECTIONS).join(', ')}, workspace).`);
      continue;
    }
    const fixture: WorkspaceFixture = workspaces.get(workspaceUuid) ?? {};
    const counted = (counts[workspaceUuid] = safeDict<number>());
    for (const [name, items] of Object.entries(given)) {
      if (name === 'workspace') {
        const item = { ...(isRecord(items) ? items : {}), uuid: workspaceUuid };
        if (check(deps, 'Workspace', item, `${at}/workspace`, report)) fixture.workspace = item;
        continue;
      }
      if (!Object.hasOwn(COLLECTIONS, name)) {
        report(
          `${at}/${pointerToken(name)}: is not a collection of the mock (${Object.keys(COLLECTIONS).join(', ')}, workspace).`,
        );
        continue;
      }
      if (!Array.isArray(items)) {
        report(`${at}/${name}: must be an array.`);
        continue;
      }
      const collection = name as Collection;
      const checked: JsonRecord[] = [];
      items.forEach((raw, i) => {
        const where = `${at}/${name}/${i}`;
        if (!isRecord(raw)) return report(`${where}: must be an object.`);
        const item: JsonRecord = { ...raw };
        if (collection !== 'envVars' && collection !== 'runs' && collection !== 'batches')
          item.workspaceUuid ??= workspaceUuid;
        item.uuid ??= randomUuid();
        if (item.workspaceUuid !== undefined && item.workspaceUuid !== workspaceUuid) {
          return report(
            `${where}/workspaceUuid: is ${JSON.stringify(item.workspaceUuid)}, but the item is loaded into workspace ${workspaceUuid}.`,
          );
        }
        if (collection === 'recipes' && !checkRecipeFilters(item, where, report)) return;
        if (check(deps, COLLECTIONS[collection], item, where, report)) checked.push(item);
      });
      counted[name] = checked.length;
      Object.assign(fixture, toStore(collection, checked, workspaceUuid, deps.now()));
    }
    workspaces.set(workspaceUuid, fixture);
  }
  if (problems.length > 0) return { problems };
  return { fixtures: { workspaces, counts }, problems };
}

function check(
  deps: FixtureDeps,
  schema: string,
  item: unknown,
  where: string,
  report: (line: string) => void,
): boolean {
  const validate = deps.schemaAt(`#/components/schemas/${schema}`);
  if (validate(item)) return true;
  // Each problem once, at its pointer in the fixture document, its rule in words (spec/lib/problems).
  for (const { pointer, message } of schemaProblems(validate.errors ?? []))
    report(`${where}${pointer}: ${message} (schema ${schema})`);
  return false;
}

function checkRecipeFilters(item: JsonRecord, where: string, report: (line: string) => void): boolean {
  let ok = true;
  if (item.uiType !== undefined && !(RECIPE_UI_TYPES as readonly unknown[]).includes(item.uiType)) {
    report(`${where}/uiType: must be one of ${RECIPE_UI_TYPES.join(', ')} (the uiTypes filter of listRecipes).`);
    ok = false;
  }
  if (item.category !== undefined && !(RECIPE_CATEGORIES as readonly unknown[]).includes(item.category)) {
    report(`${where}/category: must be one of ${RECIPE_CATEGORIES.join(', ')} (the categories filter of listRecipes).`);
    ok = false;
  }
  return ok;
}

/** A key as one token of a JSON pointer (RFC 6901: `~` and `/` escaped). */
const pointerToken = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

const byUuid = (items: JsonRecord[]) => new Map(items.map((item) => [String(item.uuid).toLowerCase(), item]));
const timeOf = (value: unknown, fallback: number) =>
  typeof value === 'string' && Number.isFinite(Date.parse(value)) ? Date.parse(value) : fallback;

/** Contract-shaped items → the store's records. Runs and batches keep the status given (default `success`). */
function toStore(collection: Collection, items: JsonRecord[], workspaceUuid: string, now: number): WorkspaceFixture {
  switch (collection) {
    case 'suppressions':
      return { suppressions: items as unknown as Suppression[] };
    case 'allocations':
      return {
        allocations: items.map(({ territoryUuid, ...allocation }) => ({
          allocation,
          territoryUuid: typeof territoryUuid === 'string' ? territoryUuid : '',
        })),
      };
    case 'recipes':
      return {
        recipes: items.map((recipe): RecipeEntry => ({
          recipe,
          uiType: (recipe.uiType as RecipeEntry['uiType']) ?? 'js',
          category: (recipe.category as string) ?? 'other',
        })),
      };
    case 'runs':
      return {
        runs: new Map(items.map((item) => [String(item.uuid).toLowerCase(), toRunRecord(item, workspaceUuid, now)])),
      };
    case 'batches':
      return {
        batches: new Map(
          items.map((item) => [String(item.uuid).toLowerCase(), toBatchRecord(item, workspaceUuid, now)]),
        ),
      };
    default:
      return { [collection]: byUuid(items) };
  }
}

function toRunRecord(item: JsonRecord, workspaceUuid: string, now: number): RunRecord {
  const createdAtMs = timeOf(item.createdAt, now);
  const finishedAtMs = item.finishedAt ? timeOf(item.finishedAt, createdAtMs) : undefined;
  const status = (item.status as RunStatus | undefined) ?? 'success';
  // dictionary-lookup: `field` is one of the Run fields named in this function, never request data
  const link = (field: string) => (typeof item[field] === 'string' ? (item[field] as string) : null);
  return createRunRecord({
    uuid: String(item.uuid).toLowerCase(),
    workspaceUuid,
    createdAtMs,
    durationMs: Math.max(0, (finishedAtMs ?? createdAtMs) - createdAtMs),
    fixedStatus: status,
    finishedAtMs,
    workflowUuid: link('workflowUuid'),
    releaseUuid: link('releaseUuid'),
    batchUuid: link('batchUuid'),
    parentUuid: link('parentUuid'),
    parentBatchUuid: link('parentBatchUuid'),
    parentNodeUuid: link('parentNodeUuid'),
    recordId: link('recordId'),
    recordTitle: link('recordTitle'),
    isGroupParent: item.isGroupParent === true,
  });
}

function toBatchRecord(item: JsonRecord, workspaceUuid: string, now: number): BatchRecord {
  const createdAtMs = timeOf(item.createdAt, now);
  const finishedAtMs = item.finishedAt ? timeOf(item.finishedAt, createdAtMs) : undefined;
  return {
    uuid: String(item.uuid).toLowerCase(),
    workspaceUuid,
    workflowUuid: typeof item.workflowUuid === 'string' ? item.workflowUuid : null,
    createdAtMs,
    durationMs: Math.max(0, (finishedAtMs ?? createdAtMs) - createdAtMs),
    fixedStatus: typeof item.status === 'string' ? item.status : 'success',
    finishedAtMs,
    runUuids: [],
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
