/** Helpers to read exchanges: JSON content type, error shape, header lookups, short descriptions. */
import { detachedSlice, type Exchange } from './http-client';

/** An exchange the target answered. */
export type Answered = Exchange & { response: NonNullable<Exchange['response']> };

export function isAnswered(exchange: Exchange): exchange is Answered {
  return exchange.response !== undefined;
}

/** The answer of an exchange that must have one; an exchange without names itself and why it has none. */
/** A 2xx answer: the target accepted the request. */
export function isSuccess(exchange: Exchange): exchange is Answered {
  const status = exchange.response?.status ?? 0;
  return status >= 200 && status < 300;
}

export function responseOf(exchange: Exchange): NonNullable<Exchange['response']> {
  if (!exchange.response)
    throw new Error(
      `exchange ${exchange.id} (${exchange.request.method} ${exchange.request.path}) has no response: ${exchange.error ?? 'none was read'}`,
    );
  return exchange.response;
}

export function describe(exchange: Exchange): string {
  const res = exchange.response;
  if (exchange.error || !res) return `no response (${exchange.error ?? 'none was read'})`;
  const text = res.text.length > 300 ? `${detachedSlice(res.text, 300)}…` : res.text;
  const cut = res.truncated
    ? ` (the answer went on past --max-response-bytes: its first ${res.text.length} characters read)`
    : '';
  return `${res.status} ${text}${cut}`.trim();
}

export function statusOf(exchange: Exchange): number | undefined {
  return exchange.response?.status;
}

export function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  const type = value.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || /^application\/[^/]+\+json$/.test(type);
}

/** Problems of an error body against the contract's error shape; empty when it conforms. */
export function errorShapeProblems(exchange: Exchange): string[] {
  const res = exchange.response;
  if (!res) return [];
  const problems: string[] = [];
  if (!isJsonContentType(res.headers['content-type']))
    problems.push(`Content-Type is ${res.headers['content-type'] ?? 'missing'}, not JSON`);
  const body = res.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    problems.push(`body is not a JSON object: ${JSON.stringify(res.text.slice(0, 200))}`);
    return problems;
  }
  const record = body as Record<string, unknown>;
  if (typeof record.errorMessage !== 'string')
    problems.push(
      record.errorMessage === undefined
        ? 'errorMessage is missing'
        : `errorMessage is ${typeof record.errorMessage}, not a string`,
    );
  if (record.reason !== undefined && typeof record.reason !== 'string')
    problems.push(`reason is ${typeof record.reason}, not a string`);
  return problems;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a))
    return a.length === (b as unknown[]).length && a.every((item, i) => deepEqual(item, (b as unknown[])[i]));
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return (
    ka.length === kb.length &&
    ka.every((key) => deepEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
  );
}

/** The first object-valued property of a JSON body (`{run: {...}}` → the run). */
export function envelope(body: unknown, name: string): Record<string, unknown> | undefined {
  const inner = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return inner && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Record<string, unknown>) : undefined;
}
