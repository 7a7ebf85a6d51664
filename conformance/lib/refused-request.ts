/**
 * Whether the contract itself refuses a request, and why: what the suite sends on purpose to be refused (a body that
 * is not JSON, malformed JSON, a body or a parameter breaking its schema, an overlong Idempotency-Key, no valid
 * credential). The status of each failure per operation is not shown, so an answer to such a request with a 4xx the
 * contract does not list is another reading of the contract (a warning), not a second failure of the same exchange.
 */
import type { ValidateFunction } from 'ajv';
import { describeSchemaErrors, type Contract, type JsonObject, type Operation } from '../../spec/lib';
import { isJsonContentType } from './exchange';
import type { Exchange } from './http-client';
import { requestBodySchema } from './operations';

const validators = new WeakMap<object, ValidateFunction | null>();

function validatorOf(contract: Contract, schema: object, coerce: boolean): ValidateFunction | undefined {
  if (!validators.has(schema)) {
    let validate: ValidateFunction | null = null;
    try {
      validate = contract.schemas({ allErrors: true, coerce }).compile(schema as JsonObject);
    } catch {
      // A schema the validator cannot compile decides nothing: the request is not taken as refused.
    }
    validators.set(schema, validate);
  }
  return validators.get(schema) ?? undefined;
}

/** The values of an operation's path parameters in a concrete path (undefined when it does not match the template). */
function pathValues(op: Operation, path: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = op.path
    .split(/\{([^}]+)\}/)
    .map((part, i) => (i % 2 === 1 ? (names.push(part), '([^/]*)') : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  const match = new RegExp(`^${pattern}/?$`).exec(path);
  if (!match) return undefined;
  return Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1])]));
}

/** A request header by name, whatever case the request wrote it in. */
function headerOf(headers: Record<string, string>, name: string): string | undefined {
  return Object.entries(headers).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
}

/** Why the contract refuses this request of `op`, in a few words; undefined when it is one the contract accepts. */
export function refusalReason(contract: Contract, op: Operation, exchange: Exchange): string | undefined {
  const { request } = exchange;
  if (exchange.tokenLabel !== 'a' && exchange.tokenLabel !== 'b') return 'it carries no valid credential';
  const [path, search = ''] = request.path.split('?');
  const query = new URLSearchParams(search);
  const inPath = pathValues(op, path) ?? {};
  for (const parameter of op.parameters) {
    const values =
      parameter.in === 'query'
        ? query.getAll(parameter.name)
        : parameter.in === 'path'
          ? [inPath[parameter.name]].filter((v) => v !== undefined)
          : parameter.in === 'header'
            ? [headerOf(request.headers, parameter.name)].filter((v) => v !== undefined)
            : [];
    if (values.length === 0) continue;
    const validate = validatorOf(contract, parameter.schema, true);
    const value = parameter.schema.type === 'array' ? values : values[0];
    if (validate && !validate(value))
      return `its ${parameter.in} parameter ${describeSchemaErrors(validate.errors ?? [], parameter.name)}`;
  }
  if (op.requestBody?.required && request.rawBody === undefined) return 'it has no body, which the operation requires';
  const schema = requestBodySchema(op);
  if (!schema || request.rawBody === undefined) return undefined;
  const type = headerOf(request.headers, 'content-type');
  if (!isJsonContentType(type)) return `its body is not JSON (Content-Type ${type ?? 'absent'})`;
  let body: unknown;
  try {
    body = JSON.parse(request.rawBody);
  } catch {
    return 'its body is malformed JSON';
  }
  const validate = validatorOf(contract, schema, false);
  if (validate && !validate(body)) return `its body breaks the schema (${describeSchemaErrors(validate.errors ?? [])})`;
  return undefined;
}
