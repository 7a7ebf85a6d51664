/**
 * Parsers for the headers the contract states: the rate-limit family (IETF RateLimit fields and the
 * legacy X- spellings), Retry-After, Deprecation (RFC 9745) and Sunset (RFC 8594).
 * Each returns problems (contract violations) and notes (readings the contract leaves open).
 */
import { parseItem, parseList, Token } from 'structured-headers';
import {
  MINIMUM_SUNSET_GAP_DAYS,
  RATE_LIMIT_HEADER_KEY,
  RATE_LIMIT_HEADER_NAMES,
  RETRY_AFTER_HEADER,
} from '../../spec/lib';

export type Finding = { severity: 'failure' | 'warning'; title: string; expected: string; received: string };

/** The eight rate-limit headers, lower case as responses are read. */
export const RATE_LIMIT_HEADERS = RATE_LIMIT_HEADER_NAMES.map((name) => name.toLowerCase());

/** Each rate-limit header by its role, lower case as responses are read. */
export const RATE_LIMIT = RATE_LIMIT_HEADER_KEY;

export const RETRY_AFTER = RETRY_AFTER_HEADER.toLowerCase();

export type RateLimitReading = {
  limit?: number;
  remaining?: number;
  reset?: number;
  window?: number;
  r?: number;
  t?: number;
};

const INTEGER = /^\d+$/;

export function parseInteger(value: string | undefined): number | undefined {
  return value !== undefined && INTEGER.test(value.trim()) ? Number(value.trim()) : undefined;
}

/** Reads and checks the eight rate-limit headers of one response. */
export function inspectRateLimitHeaders(headers: Record<string, string>): {
  reading: RateLimitReading;
  findings: Finding[];
} {
  const findings: Finding[] = [];
  const fail = (title: string, expected: string, received: string) =>
    findings.push({ severity: 'failure', title, expected, received });
  const warn = (title: string, expected: string, received: string) =>
    findings.push({ severity: 'warning', title, expected, received });
  const missing = RATE_LIMIT_HEADERS.filter((name) => headers[name] === undefined);
  if (missing.length > 0)
    fail('Rate-limit headers missing', `all of ${RATE_LIMIT_HEADERS.join(', ')}`, `missing ${missing.join(', ')}`);

  const reading: RateLimitReading = {};
  for (const [name, key] of [
    ['ratelimit-limit', 'limit'],
    ['ratelimit-remaining', 'remaining'],
    ['ratelimit-reset', 'reset'],
  ] as const) {
    const value = headers[name];
    if (value === undefined) continue;
    const parsed = parseInteger(value);
    if (parsed === undefined) fail(`${name} is not an integer`, 'a non-negative integer', JSON.stringify(value));
    else reading[key] = parsed;
    const legacy = headers[`x-${name}`];
    if (legacy !== undefined) {
      const legacyParsed = parseInteger(legacy);
      if (legacyParsed === undefined)
        fail(`x-${name} is not an integer`, 'a non-negative integer', JSON.stringify(legacy));
      else if (parsed !== undefined && legacyParsed !== parsed)
        fail(`x-${name} disagrees with ${name}`, `${parsed} (as ${name})`, String(legacyParsed));
    }
  }

  if (headers['ratelimit-policy'] !== undefined) {
    try {
      const [value, params] = parseItem(headers['ratelimit-policy']);
      const w = params.get('w');
      if (typeof value === 'number' && Number.isInteger(value)) {
        if (reading.limit !== undefined && value !== reading.limit)
          fail('RateLimit-Policy limit disagrees with RateLimit-Limit', String(reading.limit), String(value));
      } else if (typeof params.get('q') === 'number') {
        warn('RateLimit-Policy uses the named-policy form', '<limit>;w=<window>', headers['ratelimit-policy']);
      } else fail('RateLimit-Policy has no limit', '<limit>;w=<window>', headers['ratelimit-policy']);
      if (typeof w === 'number' && Number.isInteger(w) && w > 0) reading.window = w;
      else fail('RateLimit-Policy has no window', 'a w=<window seconds> parameter', headers['ratelimit-policy']);
    } catch {
      fail(
        'RateLimit-Policy is not a structured field',
        '<limit>;w=<window> (RFC 9651 item)',
        headers['ratelimit-policy'],
      );
    }
  }

  if (headers.ratelimit !== undefined) {
    try {
      const list = parseList(headers.ratelimit);
      const [name, params] = list[0] ?? [];
      if (name instanceof Token)
        fail('RateLimit policy name is not quoted', '"workspace" (a quoted string)', headers.ratelimit);
      else if (typeof name !== 'string')
        fail('RateLimit has no policy name', 'a quoted policy name', headers.ratelimit);
      else if (name !== 'workspace') warn('RateLimit names another policy', '"workspace"', headers.ratelimit);
      const r = params?.get('r');
      const t = params?.get('t');
      if (typeof r !== 'number' || !Number.isInteger(r))
        fail('RateLimit has no integer r', 'r=<remaining>', headers.ratelimit);
      else {
        reading.r = r;
        if (reading.remaining !== undefined && r !== reading.remaining)
          fail('RateLimit r disagrees with RateLimit-Remaining', String(reading.remaining), String(r));
      }
      if (typeof t !== 'number' || !Number.isInteger(t))
        fail('RateLimit has no integer t', 't=<seconds>', headers.ratelimit);
      else {
        reading.t = t;
        // The contract reads t as the window; the IETF draft as the seconds to reset: both are accepted.
        if (reading.window !== undefined && t !== reading.window) {
          if (reading.reset !== undefined && Math.abs(t - reading.reset) <= 1)
            warn(
              'RateLimit t is the seconds to reset, not the window',
              `t=${reading.window} (the window, as the contract reads it)`,
              `t=${t} (RateLimit-Reset ${reading.reset})`,
            );
          else
            fail(
              'RateLimit t is neither the window nor the seconds to reset',
              `t=${reading.window} or t=${reading.reset}`,
              `t=${t}`,
            );
        }
      }
    } catch {
      fail(
        'RateLimit is not a structured field',
        '"workspace";r=<remaining>;t=<seconds> (RFC 9651 list)',
        headers.ratelimit,
      );
    }
  }

  if (reading.limit !== undefined && reading.remaining !== undefined && reading.remaining > reading.limit)
    fail('RateLimit-Remaining exceeds RateLimit-Limit', `remaining <= ${reading.limit}`, String(reading.remaining));
  if (reading.window !== undefined && reading.reset !== undefined && reading.reset > reading.window)
    fail('RateLimit-Reset exceeds the window', `reset <= ${reading.window}`, String(reading.reset));
  return { reading, findings };
}

const IMF_FIXDATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

export function parseImfFixdate(value: string): Date | undefined {
  if (!IMF_FIXDATE.test(value.trim())) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** RFC 9745 form `@<epoch>`; an HTTP date (as the contract's prose says) is accepted with a warning. */
export function parseDeprecation(value: string): { date?: Date; findings: Finding[] } {
  try {
    const [item] = parseItem(value);
    if (item instanceof Date) return { date: item, findings: [] };
  } catch {
    // not a structured date; try the HTTP-date reading below
  }
  const date = parseImfFixdate(value);
  if (date)
    return {
      date,
      findings: [
        {
          severity: 'warning',
          title: 'Deprecation is an HTTP date',
          expected: 'RFC 9745 structured date (@<epoch>)',
          received: value,
        },
      ],
    };
  return {
    findings: [
      {
        severity: 'failure',
        title: 'Deprecation does not parse',
        expected: '@<epoch> (RFC 9745) or an HTTP date',
        received: value,
      },
    ],
  };
}

export const SUNSET_MIN_DAYS = MINIMUM_SUNSET_GAP_DAYS;

/** Checks Deprecation and Sunset of one response against the operation's `deprecated` flag. */
export function inspectVersioningHeaders(headers: Record<string, string>, operationDeprecated: boolean): Finding[] {
  const findings: Finding[] = [];
  const deprecation = headers.deprecation;
  const sunset = headers.sunset;
  let deprecatedAt: Date | undefined;
  if (deprecation !== undefined) {
    const parsed = parseDeprecation(deprecation);
    findings.push(...parsed.findings);
    deprecatedAt = parsed.date;
    if (!operationDeprecated)
      findings.push({
        severity: 'failure',
        title: 'Deprecation on an operation the contract does not deprecate',
        expected: 'no Deprecation header',
        received: `Deprecation: ${deprecation}`,
      });
  }
  if (sunset !== undefined) {
    const sunsetAt = parseImfFixdate(sunset);
    if (!sunsetAt)
      findings.push({
        severity: 'failure',
        title: 'Sunset is not an IMF-fixdate',
        expected: 'e.g. Sun, 06 Nov 1994 08:49:37 GMT',
        received: sunset,
      });
    if (deprecation === undefined)
      findings.push({
        severity: 'failure',
        title: 'Sunset without Deprecation',
        expected: 'a Deprecation header alongside Sunset',
        received: `Sunset: ${sunset}`,
      });
    else if (sunsetAt && deprecatedAt) {
      const days = (sunsetAt.getTime() - deprecatedAt.getTime()) / 86_400_000;
      if (days < SUNSET_MIN_DAYS)
        findings.push({
          severity: 'failure',
          title: 'Sunset is too soon after Deprecation',
          expected: `at least ${SUNSET_MIN_DAYS} days after ${deprecatedAt.toUTCString()}`,
          received: `${sunset} (${days.toFixed(1)} days)`,
        });
    }
  }
  return findings;
}
