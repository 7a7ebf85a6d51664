/**
 * What the contract states and what it assumes, read as data: `x-stated` (the description's own words a fact rests
 * on), `x-assumption` (a reading the contract chose where the description is open) and the machine-readable marks
 * beside them (`x-required-not-shown`, `x-constraints-not-shown`). Checks fail on stated facts and warn, quoting the
 * assumption, where a server took another reading.
 */
import { assumptionOf, statedOf, type Contract, type Operation } from '../../spec/lib';
import { requestBodySchema } from './operations';

export function ruleOf(contract: Contract, ruleId: string) {
  return contract.rules.find((rule) => rule.id === ruleId);
}

/** The assumption an `x-rules` entry makes (e.g. 400 for every invalid request), if any. */
export function ruleAssumption(contract: Contract, ruleId: string): string | undefined {
  return assumptionOf(ruleOf(contract, ruleId)?.node);
}

export function ruleStated(contract: Contract, ruleId: string): string | undefined {
  return statedOf(ruleOf(contract, ruleId)?.node);
}

/**
 * When the description does not show which request-body fields are required (`x-required-not-shown` on the body
 * schema), the assumption's text: a server requiring some of them took another reading. Undefined when stated.
 */
export function requiredNotShown(op: Operation): string | undefined {
  const schema = requestBodySchema(op);
  if (!schema || schema['x-required-not-shown'] !== true) return undefined;
  return assumptionOf(schema) ?? 'Required fields of the request body are not shown.';
}

/** The top-level body fields a request leaves out, of those its schema declares. */
export function omittedFields(op: Operation, body: unknown): string[] {
  const properties = Object.keys(requestBodySchema(op)?.properties ?? {});
  if (body === undefined || body === null) return properties;
  if (typeof body !== 'object' || Array.isArray(body)) return [];
  return properties.filter((name) => !(name in (body as Record<string, unknown>)));
}

/** The assumption on a property of a component schema (e.g. Error.retryAfter, given "for example"). */
export function propertyAssumption(contract: Contract, schemaName: string, property: string): string | undefined {
  const schema = contract.resolve(`#/components/schemas/${schemaName}`) as
    { properties?: Record<string, unknown> } | undefined;
  return assumptionOf(schema?.properties?.[property]);
}

/** The 4xx statuses an operation declares, apart from those that answer something other than the request's content. */
export function namedClientErrors(op: Operation): number[] {
  return (
    Object.keys(op.responses)
      .filter((key) => /^4\d\d$/.test(key))
      .map(Number)
      // 401 says the (valid) credential was refused and 429 that the quota is spent: neither judges the request itself.
      .filter((status) => status !== 401 && status !== 429)
  );
}

/** The contract nodes behind a parameter or top-level body field: the node itself, its schema and its items. */
export function nodesAt(op: Operation, location: string, path: string): unknown[] {
  const name = path.replace(/[.[].*$/, '');
  if (location === 'body') return [requestBodySchema(op)?.properties?.[name]];
  const parameter = op.parameters.find((p) => p.name === name);
  return [parameter?.node, parameter?.schema, parameter?.schema.items];
}

/** The description's words behind a parameter or body field, when the contract records them. */
export function statedAt(op: Operation, location: string, path: string): string | undefined {
  return nodesAt(op, location, path)
    .map(statedOf)
    .find((text) => text !== undefined);
}

/** The assumption a parameter or body field rests on (its name, its bounds), when the contract records one. */
export function assumedAt(op: Operation, location: string, path: string): string | undefined {
  // The nearest node decides: a parameter whose own name is assumed stays assumed even if its type is a stated one.
  for (const node of nodesAt(op, location, path)) {
    if (statedOf(node) !== undefined) return undefined;
    const assumption = assumptionOf(node);
    if (assumption !== undefined) return assumption;
  }
  return undefined;
}

/**
 * The description's words where it states an operation's failure statuses: only the suppressions list names them.
 * Elsewhere "the status code of each failure per operation: not shown", and the contract's lists are its reading.
 */
const STATED_STATUSES: Record<string, string> = {
  listSuppressions: 'The suppressions list names 400, 401, 404, 429 and 500.',
};

export function statedStatuses(op: Pick<Operation, 'operationId'>): string | undefined {
  return STATED_STATUSES[op.operationId];
}

/** The description's words that leave the other operations' failure statuses open. */
export const STATUSES_NOT_SHOWN =
  'The status code of each failure per operation: not shown. The other operations each list five or seven error bodies.';
