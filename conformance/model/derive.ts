/**
 * The model's view of the contract: every operation classified by its shape (what it takes and what it answers),
 * never by its name, so a contract with other operations gets other commands. A create answers an envelope with a
 * uuid; a job is a create that may answer 202; its reader is the GET below the create's path; a cancel is a
 * body-less POST below a job's reader; a list is a GET without path parameters answering an array; the query
 * answers `rows`; the export answers a `url`.
 */
import { jsonContent, statedOf, type Contract, type JsonObject, type Operation, type Parameter } from '../../spec/lib';
import { acceptsIdempotencyKey, changesExistingState, hasPathParameters, requestBodySchema } from '../lib/operations';

export type CreateRole = {
  op: Operation;
  /** The envelope property the created record comes in (`run`, `batch`, `mcpServer`). */
  envelope: string;
  /** Answers 202 (an async job polled at its reader). */
  job: boolean;
  /** The GET that reads one record back by uuid, if the contract has one. */
  reader?: Operation;
  /** The POST that cancels one, if any. */
  cancel?: Operation;
  /** Array fields of the body whose items become records beneath the job (a batch's `recordIds` → its runs). */
  children?: string;
  /** Body fields that reference another record by uuid (`workflowUuid`). */
  references: string[];
};

export type ListRole = {
  op: Operation;
  /** The answer's array property (`suppressions`). */
  items: string;
  /** Query parameters whose values are enumerated (the array's items or the value itself). */
  enumFilters: Array<{ parameter: Parameter; values: string[]; stated: boolean }>;
  paging?: { limit: Parameter; offset: Parameter; stated: boolean; max: number };
  /** Whether the answer carries a total (`count`). */
  counted: boolean;
};

export type ReadRole = { op: Operation; kind: string };

export type Roles = {
  creates: CreateRole[];
  lists: ListRole[];
  /** GET by uuid of records the suite learns ids of from answers (workflows, models, runs, batches). */
  reads: ReadRole[];
  query?: Operation;
  exports?: Operation;
  /** Every operation (the credential commands try each). */
  all: Operation[];
};

function successSchema(op: Operation): JsonObject | undefined {
  for (const key of Object.keys(op.responses)
    .filter((k) => /^2\d\d$/.test(k))
    .sort()) {
    const schema = jsonContent(op.responses[key].content)?.schema;
    if (schema) return schema;
  }
  return undefined;
}

function properties(schema: JsonObject | undefined): Record<string, JsonObject> {
  return ((schema?.properties ?? {}) as Record<string, JsonObject>) ?? {};
}

/** The envelope property of an answer whose object has a `uuid` (`{ run: { uuid } }` → `run`). */
export function envelopeOf(op: Operation): string | undefined {
  return Object.entries(properties(successSchema(op))).find(
    ([, schema]) => schema?.type === 'object' && properties(schema).uuid !== undefined,
  )?.[0];
}

/** The kind of record a path names by uuid: the segment before `{uuid}` (`/orchestration/runs/{uuid}` → `runs`). */
export function kindOfPath(path: string): string | undefined {
  return /\/([^/{}]+)\/\{[^}]+\}/.exec(path)?.[1];
}

/** The body field that would name a record of a kind (`workflows` → `workflowUuid`). */
export function fieldOfKind(kind: string): string {
  return `${kind.replace(/s$/, '')}Uuid`;
}

function isUuidSchema(schema: JsonObject | undefined, name: string): boolean {
  if (!schema) return false;
  if (typeof schema.pattern === 'string' && schema.pattern.includes('[0-9a-fA-F]{8}')) return true;
  return /Uuid$/.test(name) && (schema.type === 'string' || schema.type === undefined);
}

function enumValues(schema: JsonObject): string[] | undefined {
  const values = (schema.type === 'array' ? (schema.items as JsonObject | undefined)?.enum : schema.enum) as
    unknown[] | undefined;
  return Array.isArray(values) ? values.map(String) : undefined;
}

export function deriveRoles(contract: Contract): Roles {
  const ops = contract.operations;
  const creates: CreateRole[] = [];
  for (const op of ops) {
    if (op.method !== 'POST' || hasPathParameters(op) || !acceptsIdempotencyKey(op) || changesExistingState(op))
      continue;
    const envelope = envelopeOf(op);
    if (!envelope) continue;
    const reader = ops.find((o) => o.method === 'GET' && o.path.startsWith(`${op.path}/{`) && !/\}\/./.test(o.path));
    const cancel = reader && ops.find((o) => o.method === 'POST' && o.path.startsWith(`${reader.path}/`));
    const body = properties(requestBodySchema(op));
    const children = Object.entries(body).find(
      ([name, schema]) => schema?.type === 'array' && /Ids$/.test(name) && !/uuid/i.test(name),
    )?.[0];
    const references = Object.entries(body)
      .filter(([name, schema]) => isUuidSchema(schema, name))
      .map(([name]) => name);
    creates.push({ op, envelope, job: op.responses['202'] !== undefined, reader, cancel, children, references });
  }
  const lists: ListRole[] = [];
  for (const op of ops) {
    if (op.method !== 'GET' || hasPathParameters(op)) continue;
    const answer = properties(successSchema(op));
    const items = Object.entries(answer).find(([, schema]) => schema?.type === 'array')?.[0];
    if (!items) continue;
    const query = op.parameters.filter((p) => p.in === 'query');
    const enumFilters = query
      .map((parameter) => ({
        parameter,
        values: enumValues(parameter.schema) ?? [],
        stated: statedOf(parameter.node) !== undefined,
      }))
      .filter((filter) => filter.values.length > 0);
    const limit = query.find((p) => p.name === 'limit');
    const offset = query.find((p) => p.name === 'offset');
    const paging =
      limit && offset
        ? {
            limit,
            offset,
            stated: statedOf(limit.node) !== undefined && statedOf(offset.node) !== undefined,
            max: typeof limit.schema.maximum === 'number' ? limit.schema.maximum : 1000,
          }
        : undefined;
    lists.push({ op, items, enumFilters, paging, counted: answer.count !== undefined });
  }
  const reads: ReadRole[] = ops
    .filter((op) => op.method === 'GET' && hasPathParameters(op))
    .map((op) => ({ op, kind: kindOfPath(op.path) ?? op.operationId }));
  const query = ops.find((op) => op.method === 'POST' && properties(successSchema(op)).rows !== undefined);
  const exports = ops.find((op) => op.method === 'POST' && properties(successSchema(op)).url !== undefined);
  return { creates, lists, reads, query, exports, all: ops };
}
