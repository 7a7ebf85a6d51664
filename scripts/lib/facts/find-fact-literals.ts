import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { ContractConstants } from '../../../spec/lib';

/**
 * Contract facts are named once (house style, "One reader of the contract"): the rate-limit header names, the
 * Idempotency-Key bound, the run and terminal status sets and the idempotency key lifetime are read from
 * `spec/lib`. This finds them re-typed as literals in other sources. The patterns are built from the facts as
 * the library reads them from the document, so a fact changed there is looked for as it now is.
 */
export type FactLiteral = { file: string; line: number; fact: string; text: string };

export type Facts = Pick<ContractConstants, 'rateLimitHeaders' | 'runStatuses' | 'terminalStatuses'> & {
  idempotencyKeyMaxLength: number;
  idempotencyKeyLifetimeMs: number;
};

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const quoted = (names: string[]) => `(['"\`])(?:${names.map(escape).join('|')})\\1`;

/** Source files under `dir` a fact may not be re-typed in: TypeScript and JavaScript, tests and test helpers aside. */
export function factSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const at = join(dir, entry.name);
    if (entry.isDirectory())
      return ['node_modules', 'generated', 'testing', 'fixtures'].includes(entry.name) ? [] : factSources(at);
    return /\.(ts|js|mjs|cjs)$/.test(entry.name) && !/\.test\.[tj]s$/.test(entry.name) ? [at] : [];
  });
}

/** Per fact, a test of one line (or of an array literal, for the status sets). */
function detectors(facts: Facts): { fact: string; line?: RegExp; array?: (items: string[]) => boolean }[] {
  const statuses = new Set(facts.runStatuses);
  const status = `['"\`](?:${facts.runStatuses.map(escape).join('|')})['"\`]`;
  // A header name that is an identifier is also written as a property of Node's (lower-case) header object.
  const properties = facts.rateLimitHeaders.filter((name) => /^[a-z]+$/i.test(name)).map((n) => n.toLowerCase());
  const lifetime = facts.idempotencyKeyLifetimeMs;
  const hours = lifetime / 3_600_000;
  const durations = [
    `${hours}\\s*\\*\\s*60`,
    `${lifetime}`,
    `${lifetime}`.replace(/\B(?=(\d{3})+$)/g, '_'),
    `${hours}\\s*h`,
  ];
  return [
    { fact: 'a rate-limit header name', line: new RegExp(quoted(facts.rateLimitHeaders), 'i') },
    { fact: 'a rate-limit header name', line: new RegExp(`\\.(?:${properties.join('|')})\\b(?!\\()`) },
    { fact: 'the Idempotency-Key bound', line: new RegExp(`(?<![\\w.])${facts.idempotencyKeyMaxLength}(?![\\w.])`) },
    // A duration of the lifetime's length on a line about idempotency (other stores may keep things as long).
    { fact: 'the idempotency key lifetime', line: new RegExp(`^(?=.*idempot)(?=.*(?:${durations.join('|')}))`, 'i') },
    // Two statuses or more in one array literal, or three in a union type.
    { fact: 'a run status set', array: (items) => new Set(items.filter((item) => statuses.has(item))).size >= 2 },
    { fact: 'a run status set', line: new RegExp(`${status}(?:\\s*\\|\\s*${status}){2}`) },
  ];
}

/** The literals of contract facts in `files` (paths reported relative to `root`). */
export function findFactLiterals(root: string, files: string[], facts: Facts): FactLiteral[] {
  const found: FactLiteral[] = [];
  const tests = detectors(facts);
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n');
    const at = relative(root, file);
    lines.forEach((line, i) => {
      for (const { fact, line: pattern } of tests)
        if (pattern?.test(line)) found.push({ file: at, line: i + 1, fact, text: line.trim() });
    });
    for (const match of text.matchAll(/\[([^[\]]*)\]/g)) {
      const items = [...match[1].matchAll(/(['"`])([^'"`]*)\1/g)].map((item) => item[2]);
      for (const { fact, array } of tests) {
        if (!array?.(items)) continue;
        const line = text.slice(0, match.index).split('\n').length;
        if (!found.some((hit) => hit.file === at && hit.line === line && hit.fact === fact))
          found.push({ file: at, line, fact, text: lines[line - 1].trim() });
      }
    }
  }
  return found;
}
