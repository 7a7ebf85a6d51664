import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { ContractConstants } from '../../../spec/lib';

/**
 * Contract facts are named once (house style, "One reader of the contract"): the rate-limit header names, the
 * Idempotency-Key bound, the run and terminal status sets and the idempotency key lifetime are read from
 * `spec/lib`. This finds them re-typed as literals in other sources. The patterns are built from the facts as
 * the library reads them from the document, so a fact changed there is looked for as it now is. Left alone: tests
 * and test data (`*.test.ts`, `test-*.ts`, `testing/`), generated code, comment lines where the fact stands in a
 * quotation of the contract's own text, and the sources in `FACT_EXEMPTIONS`.
 */
export type FactLiteral = { file: string; line: number; fact: string; text: string };

export type Facts = Pick<ContractConstants, 'rateLimitHeaders' | 'runStatuses' | 'terminalStatuses'> & {
  idempotencyKeyMaxLength: number;
  idempotencyKeyLifetimeMs: number;
  /** The contract's text (spec/openapi.yaml): a comment that quotes it, in double quotes, may name a fact. */
  quotable?: string;
};

/**
 * The one list of sources that name these facts themselves on purpose (paths from the repository root, a folder
 * ending in `/`), each with its reason. Anything else reads them from spec/lib.
 */
export const FACT_EXEMPTIONS: Readonly<Record<string, string>> = {
  'conformance/independent/server.ts':
    'an implementation of the API written apart from the project, as a server team writes its own: it shares no ' +
    'code with the contract or its readers, so the suite is proved against a server the project did not derive',
  'conformance/fixtures/broken/':
    'the broken servers the suite is proved against: each answers as another server would, setting and reading ' +
    'the headers and bounds it gets wrong by name',
  'conformance/fixtures/correct/':
    'the correct variants (another rate limiter, other header readings): each answers as another server would, ' +
    'setting and reading the headers by name',
  'conformance/fixtures/hostile/':
    'the hostile targets the suite is proved against: each answers as a server the project did not write would, ' +
    'setting the headers it abuses by name',
  'mocks/control/poll.ts':
    'part of the control client, which ships alone (plain fetch, no dependencies, in the browser too): its ' +
    'terminal statuses are tied to the contract by a compile-time check against the generated TerminalRunStatus',
  'generators/typed-client.ts':
    "a client written as the API's users write one: its literal values and status unions are what tsc checks the " +
    'generated types against, so a contract change that breaks such a client fails the type check',
};

/** The exemption `path` (from the repository root) falls under, if any. */
export function exemptionOf(path: string): string | undefined {
  const at = path.split(sep).join('/');
  const key = Object.keys(FACT_EXEMPTIONS).find((entry) => (entry.endsWith('/') ? at.startsWith(entry) : at === entry));
  return key === undefined ? undefined : FACT_EXEMPTIONS[key];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const quoted = (names: string[]) => `(['"\`])(?:${names.map(escape).join('|')})\\1`;

/**
 * Source files under `dir` a fact may not be re-typed in: TypeScript and JavaScript, without tests and test data
 * (`*.test.ts`, `test-*.ts` shared by tests, `testing/`), generated code and the exemptions (`root` is the
 * repository's).
 */
export function factSources(root: string, dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const at = join(dir, entry.name);
    if (exemptionOf(relative(root, at) + (entry.isDirectory() ? '/' : ''))) return [];
    if (entry.isDirectory())
      return ['node_modules', 'generated', 'testing'].includes(entry.name) ? [] : factSources(root, at);
    return /\.(ts|js|mjs|cjs)$/.test(entry.name) && !/(\.test\.[tj]s|^test-.*|\.generated\.[tj]s)$/.test(entry.name)
      ? [at]
      : [];
  });
}

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * A comment line with its quotations of the contract blanked: a passage of three words or more in double quotes
 * that the contract's text holds as it stands. Code lines are returned whole.
 */
function withoutQuotations(line: string, quotable: string): string {
  if (!quotable || !/^\s*(?:\/\/|\/?\*)/.test(line)) return line;
  return line.replace(/"([^"]+)"/g, (quotation, text: string) => {
    const passage = normalise(text);
    return passage.split(' ').length >= 3 && quotable.includes(passage) ? '""' : quotation;
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
  const quotable = normalise(facts.quotable ?? '');
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n');
    const at = relative(root, file);
    lines.forEach((line, i) => {
      const tested = withoutQuotations(line, quotable);
      for (const { fact, line: pattern } of tests)
        if (pattern?.test(tested)) found.push({ file: at, line: i + 1, fact, text: line.trim() });
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
