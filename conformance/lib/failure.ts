/**
 * The typed outcome of a check: every failure or warning names the contract rule (x-rules id) it
 * verifies, what was expected and received, the exchange, and how to reproduce it.
 */
import { quoteShell, statedOf } from '../../spec/lib';
import { detachedSlice, type Exchange } from './http-client';

export type Severity = 'failure' | 'warning';

export type RecordedRequest = { method: string; url: string; headers: Record<string, string>; body?: unknown };
export type RecordedResponse = { status: number; headers: Record<string, string>; body?: unknown };

export type Failure = {
  ruleId: string;
  checkId: string;
  title: string;
  expected: string;
  received: string;
  severity: Severity;
  request?: RecordedRequest;
  response?: RecordedResponse;
  /** `curl` line that sends the same request again. */
  reproduce?: string;
  /** fast-check seed and counterexample path, when the failure came from a property. */
  seed?: number;
  path?: string;
  /** The command line that replays the counterexample. */
  replay?: string;
  /** How many times the same defect was seen (same check, rule and cause, whatever the operation). */
  occurrences?: number;
  /** A few of those occurrences beyond the first, each with its own reproduction. */
  examples?: FailureExample[];
  /**
   * What makes occurrences one defect, when the title names the case (a field, a value): e.g. "accepted an invalid
   * request" for every invalid field of an operation that validates nothing. Default: the title.
   */
  cause?: string;
  /** The operations the occurrences were seen on (one cause across operations is one failure). */
  operations?: string[];
  /** Other checks that reached the same verdict on the same exchange (reported once, here). */
  alsoBy?: string[];
  /** The description's own words the failure rests on (`x-stated` of the contract node or rule). */
  stated?: string;
  /** For a warning: the contract's assumption (`x-assumption`) whose other reading the server took. */
  assumption?: string;
};

export type FailureExample = { request: string; status?: number; reproduce?: string; title?: string };

export type FailureInput = Omit<
  Failure,
  'checkId' | 'ruleId' | 'severity' | 'request' | 'response' | 'reproduce' | 'stated' | 'operations' | 'alsoBy'
> & {
  ruleId?: string;
  /**
   * The description's words the failure rests on; by default its rule's `x-stated`. `false` where the rule's words
   * are about another part of it (the suppressions' body for a status elsewhere): reports then quote the rule itself.
   */
  stated?: string | false;
  severity?: Severity;
  exchange?: Exchange;
  /** Earlier exchanges the defect needs (a create before its replay), in order; reproduced before `exchange`. */
  sequence?: Exchange[];
};

/** Thrown inside properties and checks; the runner turns it into a recorded Failure. */
export class CheckFailure extends Error {
  constructor(readonly input: FailureInput) {
    super(`${input.title}: expected ${input.expected}, received ${input.received}`);
    this.name = 'CheckFailure';
  }
}

/** Thrown by a check that cannot run against this target (missing token, budget, writes not allowed). */
export class CheckSkipped extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CheckSkipped';
  }
}

/** How the suite's tokens are written in reproductions: as given (a literal from a flag, a variable from the environment). */
export type Credentials = { a: string; b: string };

export const TOKEN_VARIABLES: Credentials = { a: '$CONFORMANCE_TOKEN', b: '$CONFORMANCE_TOKEN_B' };

function credentialOf(exchange: Exchange, credentials: Credentials): string | undefined {
  return exchange.tokenLabel === 'a' || exchange.tokenLabel === 'b' ? credentials[exchange.tokenLabel] : undefined;
}

/**
 * Quoted for a shell (one line, controls written as escapes: quoteShell); token A carried outside Authorization
 * (TOKEN_A_MARK) is written as given.
 */
function shellQuote(value: string, tokenA: string = TOKEN_VARIABLES.a): string {
  const quote = quoteShell;
  const written = tokenA.startsWith('$') ? `"${tokenA}"` : quote(tokenA);
  return value
    .split(/\{token-a\}|%7Btoken-a%7D/)
    .map(quote)
    .join(written);
}

/** A curl line for the exchange; the suite's own tokens are written as given (by default as environment variables). */
export function toCurl(exchange: Exchange, credentials: Credentials = TOKEN_VARIABLES): string {
  const parts = ['curl', '-i', '-X', exchange.request.method, shellQuote(exchange.request.url, credentials.a)];
  for (const [name, value] of Object.entries(exchange.request.headers)) {
    const token = name.toLowerCase() === 'authorization' ? credentialOf(exchange, credentials) : undefined;
    if (token?.startsWith('$')) parts.push('-H', `"${name}: Bearer ${token}"`);
    else if (token !== undefined) parts.push('-H', shellQuote(`${name}: Bearer ${token}`));
    else if (name.toLowerCase() === 'authorization' && exchange.authShell)
      parts.push('-H', `"${name}: ${exchange.authShell}"`);
    else parts.push('-H', shellQuote(`${name}: ${value}`, credentials.a));
  }
  if (exchange.request.rawBody !== undefined) parts.push('--data-raw', shellQuote(exchange.request.rawBody));
  return parts.join(' ');
}

function truncate(value: unknown, max = 2000): unknown {
  if (typeof value === 'string')
    return value.length > max ? `${detachedSlice(value, max)}… (${value.length} chars)` : value;
  const text = JSON.stringify(value);
  if (text !== undefined && text.length > max) return `${text.slice(0, max)}… (${text.length} chars)`;
  return value;
}

export function redactHeaders(exchange: Exchange, credentials: Credentials = TOKEN_VARIABLES): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(exchange.request.headers)) {
    const token = name.toLowerCase() === 'authorization' ? credentialOf(exchange, credentials) : undefined;
    headers[name] =
      token !== undefined
        ? `Bearer ${token}`
        : name.toLowerCase() === 'authorization' && exchange.authShell
          ? exchange.authShell
          : value;
  }
  return headers;
}

/** The curl lines that reproduce a defect: the exchanges it needs, in order, then the one that shows it. */
export function toCurlSequence(exchanges: Exchange[], credentials: Credentials = TOKEN_VARIABLES): string {
  const unique = exchanges.filter((exchange, i) => exchanges.findIndex((other) => other.id === exchange.id) === i);
  return unique.map((exchange) => toCurl(exchange, credentials)).join('\n');
}

/** The contract's rules as far as a failure needs them: the description's words each rests on (`x-stated` of the entry). */
export type StatedRules = ReadonlyArray<{ id: string; node?: unknown }>;

export function toFailure(
  input: FailureInput,
  checkId: string,
  defaultRuleId: string,
  credentials: Credentials = TOKEN_VARIABLES,
  rules: StatedRules = [],
): Failure {
  const { exchange, sequence, stated: words, ...rest } = input;
  const ruleId = input.ruleId ?? defaultRuleId;
  const failure: Failure = {
    ...rest,
    ...(typeof words === 'string' ? { stated: words } : {}),
    ruleId,
    checkId,
    severity: input.severity ?? 'failure',
  };
  // A failure without its own words rests on its rule's; a warning rests on an assumption instead.
  if (failure.severity === 'failure' && words === undefined) {
    const stated = statedOf(rules.find((rule) => rule.id === ruleId)?.node);
    if (stated) failure.stated = stated;
  }
  if (exchange) {
    failure.request = {
      method: exchange.request.method,
      url: exchange.request.url,
      headers: redactHeaders(exchange, credentials),
      body: truncate(exchange.request.body),
    };
    if (exchange.response) {
      failure.response = {
        status: exchange.response.status,
        headers: exchange.response.headers,
        body: truncate(exchange.response.body ?? exchange.response.text),
      };
    }
    failure.reproduce = toCurlSequence(
      [...(sequence ?? []).filter((earlier) => earlier.id < exchange.id), exchange],
      credentials,
    );
  }
  return failure;
}
