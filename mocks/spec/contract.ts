import type { SafeDict } from '../safety/dict';
import { loadSpec, escapePointer, resolveRef, type LoadedSpec } from './load';
import { createRouter } from './router';
import { createSchemaCompiler, describeSchemaError, type SchemaCompiler } from './schemas';

export type ObservedResponse = { method: string; path: string; status: number; headers: SafeDict<string> | Record<string, string>; body: unknown };

/** Headers every answer carries, also on paths the spec does not have (x-rules ratelimit-headers-every-response). */
const RATE_LIMIT_HEADERS = ['ratelimit', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit-policy', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'] as const;

/**
 * Checks a response against the spec (x-rules response-conformance): its status is declared, every required
 * header is present and valid, the body is JSON matching the declared schema. Returns the violations.
 */
export async function createResponseValidator(specPath: string) {
  const spec: LoadedSpec = await loadSpec(specPath);
  const matchRoute = createRouter(spec.operations);
  const compiler: SchemaCompiler = createSchemaCompiler(spec.document);
  const errorShape = compiler.at('#/components/schemas/Error');

  return function validateResponse(observed: ObservedResponse): string[] {
    const violations: string[] = [];
    const where = `${observed.method} ${observed.path} → ${observed.status}`;
    let route;
    try {
      route = matchRoute(observed.method, observed.path);
    } catch {
      // No such operation: the answer must still be the error shape with the rate-limit headers.
      for (const name of RATE_LIMIT_HEADERS) if (observed.headers[name] === undefined) violations.push(`${where}: header ${name} is missing`);
      if (observed.status < 400) violations.push(`${where}: an undeclared route answered a success`);
      else if (!errorShape(observed.body)) violations.push(`${where}: body is not the error shape: ${describeSchemaError(errorShape.errors![0], 'body')}`);
      return violations;
    }
    const { operation } = route;
    const responses = new Map(Object.entries(operation.responses));
    const statusKey = responses.has(String(observed.status)) ? String(observed.status) : responses.has('default') ? 'default' : undefined;
    if (!statusKey) return [`${where}: status ${observed.status} is not declared for ${operation.operationId}`];
    const responsePointer = `${operation.pointer}/responses/${statusKey}`;
    const response = resolveRef(spec.document, responses.get(statusKey)!, responsePointer);
    for (const [name, raw] of Object.entries<Record<string, any>>(response.value.headers ?? {})) {
      const header = resolveRef(spec.document, raw, `${response.pointer}/headers/${escapePointer(name)}`);
      const value = new Map(Object.entries(observed.headers)).get(name.toLowerCase());
      if (value === undefined) {
        if (header.value.required) violations.push(`${where}: required header ${name} is missing`);
        continue;
      }
      const validate = compiler.at(`${header.pointer}/schema`);
      if (!validate(value)) violations.push(`${where}: header ${name}: ${describeSchemaError(validate.errors![0], name)} (got ${JSON.stringify(value)})`);
    }
    const content = response.value.content as Record<string, unknown> | undefined;
    if (content) {
      const mediaType = Object.keys(content).find((t) => t.includes('json'));
      if (mediaType) {
        if (!(observed.headers['content-type'] ?? '').includes('json')) violations.push(`${where}: Content-Type is ${observed.headers['content-type']}, not JSON`);
        const validate = compiler.at(`${response.pointer}/content/${escapePointer(mediaType)}/schema`);
        if (!validate(observed.body)) violations.push(`${where}: ${describeSchemaError(validate.errors![0], 'body')}`);
      }
    }
    return violations;
  };
}

export type ResponseValidator = Awaited<ReturnType<typeof createResponseValidator>>;
