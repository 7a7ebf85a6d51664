// The waiver file: breaking changes (and lint findings) accepted deliberately, each with why, who approved it and
// until when. An expired waiver fails the check, so an acceptance never outlives its review.
//
//   diff:
//     - rule: response-field-removed               # diff rule id (required)
//       operation: GET /things/{uuid}              # optional; `*` matches any run of characters
//       location: 'response 200 * › thing.note'    # optional, same matching
//       reason: the field was never filled in      # required
//       approvedBy: api-review                     # required
//       expires: 2027-01-31                        # required, a date
//   lint:
//     - rule: no-unused-components
//       target: '#/components/schemas/Legacy'      # optional JSON pointer (with `*`)
//       reason: ..., approvedBy: ..., expires: ...

import { existsSync, readFileSync } from 'node:fs';
import { parseDocumentText } from '../../../spec/lib/load';
import type { Change } from './change';

export const DEFAULT_WAIVERS_PATH = 'scripts/waivers.yaml';

export type Waiver = {
  section: 'diff' | 'lint';
  rule: string;
  operation?: string;
  location?: string;
  target?: string;
  reason: string;
  approvedBy: string;
  expires: string;
};

export type WaiverFile = { file?: string; waivers: Waiver[] };

export class WaiverFileError extends Error {}

function dateOf(value: unknown): string | undefined {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(new Date(value).getTime()))
    return undefined;
  return value.slice(0, 10);
}

/** Read and validate a waiver file; a missing default file is an empty list, a malformed one an error. */
export function loadWaivers(file: string | undefined): WaiverFile {
  if (!file || !existsSync(file)) return { file: undefined, waivers: [] };
  const doc = parseDocumentText(readFileSync(file, 'utf8')) ?? {};
  if (typeof doc !== 'object' || Array.isArray(doc))
    throw new WaiverFileError(`${file}: expected a mapping with \`diff:\` and/or \`lint:\` lists`);
  const waivers: Waiver[] = [];
  for (const section of ['diff', 'lint'] as const) {
    const list = (doc as Record<string, unknown>)[section] ?? [];
    if (!Array.isArray(list)) throw new WaiverFileError(`${file}: \`${section}\` must be a list`);
    list.forEach((raw: unknown, i: number) => {
      const entry = (raw ?? {}) as Record<string, unknown>;
      const at = `${file}: ${section}[${i}]`;
      for (const key of ['rule', 'reason', 'approvedBy']) {
        if (typeof entry[key] !== 'string' || (entry[key] as string).trim() === '')
          throw new WaiverFileError(`${at}: \`${key}\` is required (a non-empty string)`);
      }
      const expires = dateOf(entry.expires);
      if (!expires) throw new WaiverFileError(`${at}: \`expires\` is required (a date, YYYY-MM-DD)`);
      const known = new Set(['rule', 'operation', 'location', 'target', 'reason', 'approvedBy', 'expires']);
      const unknown = Object.keys(entry).filter((k) => !known.has(k));
      if (unknown.length) throw new WaiverFileError(`${at}: unknown key(s) ${unknown.join(', ')}`);
      waivers.push({
        section,
        rule: entry.rule as string,
        reason: entry.reason as string,
        approvedBy: entry.approvedBy as string,
        expires,
        ...(typeof entry.operation === 'string' ? { operation: entry.operation } : {}),
        ...(typeof entry.location === 'string' ? { location: entry.location } : {}),
        ...(typeof entry.target === 'string' ? { target: entry.target } : {}),
      });
    });
  }
  return { file, waivers };
}

/** `*` matches any run of characters; everything else literally. */
export function globMatches(pattern: string | undefined, value: string): boolean {
  if (pattern === undefined) return true;
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return re.test(value);
}

/** A waiver is in force through the whole day of its `expires` date (UTC). */
export function isExpired(waiver: Waiver, now: Date): boolean {
  return new Date(`${waiver.expires}T23:59:59.999Z`).getTime() < now.getTime();
}

export function waiverMatchesChange(w: Waiver, c: Pick<Change, 'rule' | 'operation' | 'location'>): boolean {
  return (
    w.section === 'diff' &&
    w.rule === c.rule &&
    globMatches(w.operation, c.operation) &&
    globMatches(w.location, c.location)
  );
}
