import type { components } from '../generators/generated/openapi';
import { TERMINAL_STATUSES } from '../spec/lib/constants';
/** Outcomes a created run can be told to end in (the terminal run statuses). */
export type Outcome = components['schemas']['TerminalRunStatus'];
export const OUTCOMES = TERMINAL_STATUSES as readonly Outcome[];

/** Network faults a request can ask for: reset (TCP RST), empty (closed, no bytes), truncated, malformed-json, hang. */
export const FAULTS = ['reset', 'empty', 'truncated', 'malformed-json', 'hang'] as const;
export type Fault = (typeof FAULTS)[number];

/** Longest run a request may ask for with `Prefer: duration`, so a typo cannot leave a run pending for days. */
export const MAX_DURATION_MS = 24 * 60 * 60 * 1000;

/**
 * What a client asks for through `Prefer` (RFC 7240): Prism's vocabulary (code, example, dynamic) plus the mock's
 * own (latency, outcome, duration, fault). `problems` names preferences the mock knows but whose value it cannot
 * read; unknown preferences are ignored, as RFC 7240 §2 asks.
 */
export type Preferences = {
  code?: number;
  example?: string;
  dynamic?: boolean;
  latencyMs?: number;
  outcome?: Outcome;
  durationMs?: number;
  fault?: Fault;
  problems?: string[];
};

const MS = /^\d{1,9}$/;

/** Each known preference: reads its value into `into`, or returns what it expected. */
const READERS = new Map<string, (value: string, into: Preferences) => string | undefined>(
  Object.entries({
    code: (v, p) => (/^[1-5]\d\d$/.test(v) ? void (p.code = Number(v)) : 'a status code such as 404'),
    example: (v, p) => (v ? void (p.example = v) : 'the name of an example'),
    dynamic: (v, p) => (v === '' || v === 'true' || v === 'false' ? void (p.dynamic = v !== 'false') : 'true or false'),
    latency: (v, p) => (MS.test(v) ? void (p.latencyMs = Number(v)) : 'milliseconds, e.g. latency=1500'),
    outcome: (v, p) =>
      (OUTCOMES as readonly string[]).includes(v) ? void (p.outcome = v as Outcome) : `one of ${OUTCOMES.join(', ')}`,
    duration: (v, p) =>
      MS.test(v) && Number(v) <= MAX_DURATION_MS
        ? void (p.durationMs = Number(v))
        : `milliseconds up to ${MAX_DURATION_MS}, e.g. duration=5000`,
    fault: (v, p) =>
      (FAULTS as readonly string[]).includes(v) ? void (p.fault = v as Fault) : `one of ${FAULTS.join(', ')}`,
  } satisfies Record<string, (value: string, into: Preferences) => string | undefined>),
);

export function parsePrefer(header: string | undefined): Preferences {
  const preferences: Preferences = {};
  if (!header) return preferences;
  for (const part of header.split(/[,;]/)) {
    const at = part.indexOf('=');
    const name = (at < 0 ? part : part.slice(0, at)).trim().toLowerCase();
    const value =
      at < 0
        ? ''
        : part
            .slice(at + 1)
            .trim()
            .replace(/^"(.*)"$/, '$1');
    const read = READERS.get(name);
    const expected = read?.(value, preferences);
    if (expected)
      (preferences.problems ??= []).push(`Prefer: ${name}=${value || '(empty)'} is not valid; expected ${expected}.`);
  }
  return preferences;
}

/** Prism takes over when the client asks for a particular declared response. */
export function wantsDeclaredResponse(p: Preferences): boolean {
  return p.code !== undefined || p.example !== undefined || p.dynamic === true;
}
