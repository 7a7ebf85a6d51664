// Beyond the wire: for each breaking change (and warning), the generated client types it changes, named by where
// the change is written (the names openapi-typescript gives them), and the conformance checks whose declared inputs
// (each check's `inputs`: the operations it exercises, the parts it reads) hold the change's operation and part.
// Named, not generated: running openapi-typescript on both sides cost a second of start-up and, on an 11 MB
// description, seconds and half a gigabyte per side, to learn what the change's place and keyword already say.

import { listOperations, type Operation } from '../../../spec/lib/operations';
import type { JsonObject } from '../../../spec/lib/json';
import { parsePointer } from '../../../spec/lib/pointer';
import { CHECKS } from '../../../conformance/checks';
import { exercises, readsPart, type CheckInputs } from '../../../conformance/checks/inputs';
import type { Change, ChangePart } from './change';
import { getRule } from './all-rules';

/** What impact reads of a check: its id and its declared inputs. */
export type CheckWithInputs = { id: string; inputs: CheckInputs };

/** Keywords that constrain values but not their TypeScript type (openapi-typescript prints none of them). */
const UNTYPED_KEYWORDS = new Set([
  'maxLength',
  'minLength',
  'maximum',
  'minimum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'maxItems',
  'minItems',
  'maxProperties',
  'minProperties',
  'maxContains',
  'minContains',
  'pattern',
  'format',
  'multipleOf',
  'uniqueItems',
  'contentEncoding',
  'contentMediaType',
  'description',
  'summary',
  'examples',
  'example',
]);

/**
 * Does the change alter what openapi-typescript generates? Its rule says whether it can (`NO_TYPES` where it is
 * defined: documentation, lifecycle, security, servers, serialisation), and the keyword it is at whether it does.
 * types.test.ts generates the types of each fixture case's two sides and holds this answer to them.
 */
export function changesClientTypes(change: Change): boolean {
  if (!getRule(change.rule).types) return false;
  const last = parsePointer(change.source?.pointer ?? '#').at(-1);
  return last === undefined || !UNTYPED_KEYWORDS.has(last);
}

const typeKey = (...names: string[]) => names.map((n) => `[${JSON.stringify(n)}]`).join('');

/**
 * The client type that holds a change: the component it is written in (`components["schemas"]["Thing"]`), else
 * the operation's own type (`operations["getThing"]`, or `paths["/x"]` without an operationId). A change read
 * from a split file has no document pointer: the operation's type names it.
 */
export function clientTypesOf(change: Change, operationIds: string[], path: string | undefined): string[] {
  if (!changesClientTypes(change)) return [];
  const tokens = parsePointer(change.source?.pointer ?? '#');
  if (tokens[0] === 'components' && tokens.length >= 3) return [`components${typeKey(tokens[1], tokens[2])}`];
  if (tokens[0] === 'webhooks' && tokens.length >= 2) return [`webhooks${typeKey(tokens[1])}`];
  if (operationIds.length > 0) return operationIds.map((id) => `operations${typeKey(id)}`).sort();
  return path !== undefined ? [`paths${typeKey(path)}`] : [];
}

export type ImpactInput = { baseApi: JsonObject; headApi: JsonObject };

/** `GET /x/{uuid}`: how the diff names an operation. */
const keyOf = (op: Operation) => `${op.method} ${op.path}`;

/** The checks whose inputs hold a change: its part among what they read, its operation among those they exercise. */
export function checksOfChange(checks: readonly CheckWithInputs[], change: Change, sides: Operation[][]): string[] {
  const target = change.operation;
  // A change to a path (`/things` removed) concerns each of its operations; a document-wide one, every operation.
  const concerns = (op: Operation) =>
    keyOf(op) === target || (!target.includes(' ') && op.path === target) || target === '(document)';
  return checks
    .filter(
      ({ inputs }) =>
        readsPart(inputs.reads, change.part) &&
        sides.some((ops) => ops.some((op) => concerns(op) && exercises(inputs, op, ops))),
    )
    .map((check) => check.id);
}

/** What decides which checks a part concerns (a body's field path only by being there): one memo entry each. */
function partKey(part: ChangePart): string {
  const { kind } = part;
  if (kind === 'parameter') return `${kind} ${part.in} ${part.name}`;
  if (kind === 'response-header') return `${kind} ${part.status} ${part.name}`;
  if (kind === 'response') return `${kind} ${part.status} ${part.field === undefined ? '' : '›'}`;
  return kind;
}

/**
 * Adds `impact` to every breaking change and warning of the report; computed once per operation and place (many
 * changes share both).
 */
export function addImpact(changes: Change[], input: ImpactInput, checks: readonly CheckWithInputs[] = CHECKS): void {
  const targets = changes.filter((c) => c.classification === 'breaking' || c.classification === 'warning');
  if (targets.length === 0) return;
  const sides: Operation[][] = [listOperations(input.headApi), listOperations(input.baseApi)];
  const byKey = new Map<string, { ids: Set<string>; path: string }>();
  for (const op of sides.flat()) {
    const entry = byKey.get(keyOf(op)) ?? { ids: new Set<string>(), path: op.path };
    if (typeof op.node.operationId === 'string') entry.ids.add(op.node.operationId);
    byKey.set(keyOf(op), entry);
  }
  const typesMemo = new Map<string, string[]>();
  const checksMemo = new Map<string, string[]>();
  // A path-level change (`/things` removed) concerns every operation of the path.
  for (const [key, entry] of [...byKey]) {
    const path = byKey.get(entry.path) ?? { ids: new Set<string>(), path: entry.path };
    entry.ids.forEach((id) => path.ids.add(id));
    if (key !== entry.path) byKey.set(entry.path, path);
  }
  for (const c of targets) {
    // A callback's types live in its operation's; a webhook's in `webhooks` (from its pointer).
    const op = byKey.get(c.parentOperation ?? c.operation);
    const typesAt = `${c.operation}\u0000${c.rule}\u0000${c.source?.pointer ?? c.location}`;
    let clientTypes = typesMemo.get(typesAt);
    if (!clientTypes) {
      clientTypes = clientTypesOf(c, [...(op?.ids ?? [])], op?.path);
      typesMemo.set(typesAt, clientTypes);
    }
    const checksAt = `${c.operation}\u0000${partKey(c.part)}`;
    let conformanceChecks = checksMemo.get(checksAt);
    if (!conformanceChecks) {
      conformanceChecks = checksOfChange(checks, c, sides);
      checksMemo.set(checksAt, conformanceChecks);
    }
    c.impact = { clientTypes, conformanceChecks };
  }
}
