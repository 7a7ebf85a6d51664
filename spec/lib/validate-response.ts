// One answer to "does this response keep the contract?" (x-rules response-conformance): a declared status
// (exact, range, then default), every required header present and every declared header valid, a JSON body
// valid against the declared schema. A path the contract does not have must still answer an error in the
// error shape with the headers every response carries (x-rules error-shape, ratelimit-headers-every-response).

import type { ErrorObject } from 'ajv';
import { POINTERS } from './constants';
import { responseFor } from './responses';
import { isJsonMediaType, jsonContent } from './operations';
import type { Router } from './router';
import { describeSchemaErrors, type SchemaSet } from './schemas';

export type ObservedResponse = {
  method: string;
  /** Below the base path; a query string is ignored. */
  path: string;
  status: number;
  /** Header names in any case. */
  headers: Record<string, string | undefined>;
  /** The parsed JSON body; undefined when there is none or it is not JSON. */
  body: unknown;
  /** The raw body, when known: tells an empty body from one that is not JSON. */
  text?: string;
};

export type ViolationKind =
  'unknown-route' | 'undeclared-status' | 'missing-header' | 'invalid-header' | 'not-json' | 'invalid-body';

export type Violation = {
  kind: ViolationKind;
  /** One line naming what is wrong, without the request. */
  message: string;
  expected: string;
  received: string;
  operationId?: string;
  /** The declared response's key (`200`, `4XX`, `default`). */
  responseKey?: string;
  header?: string;
  /** Pointer of the schema that refused the value. */
  schemaPointer?: string;
  errors?: ErrorObject[];
};

/** Header names are the other side's (a server under test may send `__proto__`): a Map, not an object. */
function lowerCaseKeys(headers: Record<string, string | undefined>): Map<string, string | undefined> {
  return new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

export type ResponseValidatorDeps = { route: Router; schemas: SchemaSet; rateLimitHeaders: readonly string[] };

export function createResponseValidator(deps: ResponseValidatorDeps): (observed: ObservedResponse) => Violation[] {
  return (observed) => {
    const headers = lowerCaseKeys(observed.headers);
    const violations: Violation[] = [];
    const route = deps.route(observed.method, observed.path);
    const checkBody = (schemaPointer: string, base: Partial<Violation>) => {
      if (observed.method.toUpperCase() === 'HEAD') return;
      if (!isJsonMediaType(headers.get('content-type'))) {
        violations.push({
          ...base,
          kind: 'not-json',
          message: `Content-Type is ${headers.get('content-type') ?? 'absent'}, not JSON`,
          expected: 'application/json',
          received: headers.get('content-type') ?? 'absent',
        });
        return;
      }
      if (observed.body === undefined) {
        const received = observed.text === undefined ? 'no body' : JSON.stringify(observed.text.slice(0, 200));
        violations.push({
          ...base,
          kind: 'not-json',
          message: 'the body is not JSON',
          expected: 'a JSON body',
          received,
        });
        return;
      }
      const errors = deps.schemas.errorsAt(schemaPointer, observed.body);
      if (errors.length > 0) {
        const received = describeSchemaErrors(errors, 'body');
        violations.push({
          ...base,
          kind: 'invalid-body',
          message: received,
          expected: `a body valid against ${schemaPointer}`,
          received,
          schemaPointer,
          errors,
        });
      }
    };

    if (route.kind !== 'match') {
      for (const name of deps.rateLimitHeaders) {
        if (headers.get(name.toLowerCase()) === undefined)
          violations.push({
            kind: 'missing-header',
            header: name,
            message: `header ${name} is missing`,
            expected: `${name} present`,
            received: 'absent',
          });
      }
      if (observed.status < 400) {
        violations.push({
          kind: 'unknown-route',
          message: `a path the contract does not have answered ${observed.status}`,
          expected: '404 or 405 in the error shape',
          received: String(observed.status),
        });
      } else checkBody(POINTERS.error, {});
      return violations;
    }

    const { operation } = route;
    const declared = responseFor(operation, observed.status);
    if (!declared) {
      const keys = Object.keys(operation.responses).join(', ');
      return [
        {
          kind: 'undeclared-status',
          operationId: operation.operationId,
          message: `status ${observed.status} is not declared for ${operation.operationId}`,
          expected: `one of ${keys}`,
          received: String(observed.status),
        },
      ];
    }
    const { response } = declared;
    const base = { operationId: operation.operationId, responseKey: response.key };
    for (const header of Object.values(response.headers)) {
      const value = headers.get(header.name.toLowerCase());
      if (value === undefined) {
        if (header.required)
          violations.push({
            ...base,
            kind: 'missing-header',
            header: header.name,
            message: `required header ${header.name} is missing`,
            expected: `${header.name} present`,
            received: 'absent',
          });
        continue;
      }
      if (!header.schemaPointer) continue;
      const errors = deps.schemas.errorsAt(header.schemaPointer, value);
      if (errors.length > 0) {
        const detail = describeSchemaErrors(errors, header.name);
        violations.push({
          ...base,
          kind: 'invalid-header',
          header: header.name,
          message: `header ${detail} (got ${JSON.stringify(value)})`,
          expected: `a value valid against ${header.schemaPointer}`,
          received: `${header.name}: ${value} (${detail})`,
          schemaPointer: header.schemaPointer,
          errors,
        });
      }
    }
    const schemaPointer = jsonContent(response.content)?.schemaPointer;
    if (schemaPointer) checkBody(schemaPointer, base);
    return violations;
  };
}

/** `METHOD path → status: message`, the one-line form logs and test failures use. */
export function formatViolation(
  observed: Pick<ObservedResponse, 'method' | 'path' | 'status'>,
  violation: Violation,
): string {
  return `${observed.method} ${observed.path} → ${observed.status}: ${violation.message}`;
}
