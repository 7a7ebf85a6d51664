/**
 * The coverage matrix, computed from the contract: every `x-rules` rule on every cell it applies to (its
 * `x-applies-to`): each operation, each write, each stated bound, each declared status, each workspace-owned resource
 * kind and each way to reach it, each async job kind and transition, each credential channel, each fact of the
 * rate-limit header arithmetic, each SQL table in each identifier form, each list filter. A cell names the checks
 * that judge it (their `covers` patterns), or the reason it is not judged.
 */
import { asObject, isObject, jsonContent, statedOf, type Contract, type Operation } from '../../spec/lib';
import type { Check } from '../checks/registry';
import type { RunSummary } from '../run/types';
import { queryTables, SQL_FORMS } from '../lib/query';
import { invalidRequestsOf } from '../lib/requests';
import { assumedAt, statedAt, statedStatuses as describedStatuses } from '../lib/stated';

export type Dimension =
  | 'operations'
  | 'writes'
  | 'bounds'
  | 'statuses'
  | 'resources'
  | 'jobs'
  | 'credentials'
  | 'rate-limit'
  | 'sql'
  | 'list-filters'
  | 'rule';

export type Cell = {
  /** `<rule id>: <subject>`, what checks' `covers` patterns match. */
  id: string;
  rule: string;
  dimension: Dimension;
  subject: string;
  /** The operation the cell is judged on, when one (filters leave it out or keep it). */
  operationId?: string;
  /** Rests on the description's words (else an assumption of the contract: judged with warnings at most). */
  stated: boolean;
  /** Checks that judge it. */
  judgedBy: string[];
  /** Why no check judges it (empty `judgedBy`), or why the selected run does not. */
  reason?: string;
};

type Draft = Omit<Cell, 'id' | 'judgedBy' | 'reason'> & { reason?: string };

/** Where a token could travel besides the stated header: only `Authorization: Bearer` is a credential. */
export const CREDENTIAL_CHANNELS = [
  'Authorization: Bearer (the stated channel)',
  'no credential',
  'no credential, invalid request',
  'Authorization: near misses of the token',
  'Authorization: another scheme',
  'query ?access_token=',
  'query ?token=',
  'cookie',
  'another header',
] as const;

/** Facts of the rate-limit headers that hold under every window shape. */
export const RATE_LIMIT_FACTS = [
  'RateLimit-Remaining <= RateLimit-Limit',
  'RateLimit r= equals RateLimit-Remaining',
  'RateLimit-Policy limit equals RateLimit-Limit',
  'RateLimit-Reset in seconds, within the window',
  'RateLimit-Remaining counts the request it answers',
  'a 429 never follows a RateLimit-Remaining that left room',
  'Retry-After in integer seconds on 429',
  'Retry-After within the window',
  'Retry-After on 429 only',
] as const;

function appliesTo(node: Record<string, unknown>): Dimension[] {
  const value = node['x-applies-to'];
  return Array.isArray(value) ? (value.filter((v) => typeof v === 'string') as Dimension[]) : [];
}

const singular = (word: string) =>
  word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.endsWith('hes') ? word.slice(0, -2) : word.replace(/s$/, '');

const successSchema = (op: Operation) => {
  const key = Object.keys(op.responses).find((status) => /^2\d\d$/.test(status));
  return key ? asObject(jsonContent(op.responses[key].content)?.schema) : {};
};

const hasPathId = (op: Operation) => op.path.includes('{');
const isWrite = (op: Operation) => ['POST', 'PUT', 'PATCH'].includes(op.method);
const bodyProperties = (op: Operation): Record<string, unknown> =>
  asObject(asObject(jsonContent(op.requestBody?.content)?.schema).properties);

/** Workspace-owned kinds and the ways each is reached, read from the operations' paths and bodies. */
type Way = { kind: string; way: string; operationId?: string; stated: boolean; reason?: string };

/** Whether the suite can learn an id of a kind in another workspace: something lists or creates it, or a SQL column names it. */
function idsLearnable(contract: Contract, kind: string): boolean {
  const key = kind.replace(/ (\w)/g, (_, c: string) => c.toUpperCase());
  const answered = contract.operations.some(
    (op) =>
      !hasPathId(op) && Object.keys(asObject(successSchema(op).properties)).some((name) => singular(name) === key),
  );
  const schemas = asObject(asObject(contract.document.components).schemas);
  const column = Object.values(schemas).some(
    (schema) =>
      typeof asObject(schema)['x-table'] === 'string' && `${key}Uuid` in asObject(asObject(schema).properties),
  );
  return answered || column;
}

function resourceWays(contract: Contract): Way[] {
  const ways = resourceWaysOf(contract);
  for (const way of ways)
    if (!idsLearnable(contract, way.kind))
      way.reason = `nothing lists or creates a ${way.kind} and no SQL column names one: another workspace's id cannot be learnt`;
  return ways;
}

function resourceWaysOf(contract: Contract): Way[] {
  const ways: Way[] = [];
  for (const op of contract.operations) {
    const properties = asObject(successSchema(op).properties);
    for (const [name, schema] of Object.entries(properties)) {
      const node = asObject(schema);
      if (op.method === 'GET' && node.type === 'array' && !hasPathId(op)) {
        const kind = singular(name);
        ways.push({ kind, way: `list (${op.operationId})`, operationId: op.operationId, stated: true });
        for (const parameter of op.parameters.filter((p) => p.in === 'query'))
          ways.push({
            kind,
            way: `list filter ${parameter.name} (${op.operationId})`,
            operationId: op.operationId,
            stated: statedOf(parameter.node) !== undefined,
          });
      } else if (isObject(node) && asObject(node.properties).uuid !== undefined && hasPathId(op)) {
        const verb = op.method === 'GET' ? 'get' : op.method === 'DELETE' ? 'delete' : 'cancel';
        ways.push({ kind: name, way: `${verb} (${op.operationId})`, operationId: op.operationId, stated: true });
      }
    }
    // An export: a POST answering a URL to the selected items of the kind its path names (…/runs/download).
    if (op.method === 'POST' && !hasPathId(op) && asObject(properties.url).type === 'string') {
      const kind = singular(op.path.split('/').slice(-2, -1)[0] ?? '');
      ways.push({ kind, way: `export (${op.operationId})`, operationId: op.operationId, stated: true });
      for (const field of Object.keys(bodyProperties(op)))
        ways.push({
          kind,
          way: `export filter ${field} (${op.operationId})`,
          operationId: op.operationId,
          stated: true,
        });
      if ('batchUuid' in bodyProperties(op))
        ways.push({
          kind,
          way: `batch membership (${op.operationId} batchUuid)`,
          operationId: op.operationId,
          stated: true,
        });
    }
    // A DELETE of a kind whose answer is empty (an environment variable): reached by id all the same.
    if (op.method === 'DELETE' && Object.keys(properties).length === 0)
      ways.push({
        kind: singular(op.path.split('/').slice(-2, -1)[0]?.replace(/-/g, ' ') ?? ''),
        way: `delete (${op.operationId})`,
        operationId: op.operationId,
        stated: true,
      });
  }
  return ways;
}

/** The async rule each transition falls under. */
const TRANSITION_RULES: Record<string, string> = {
  create: 'async-202-location',
  'cancel before terminal': 'async-202-location',
  'poll to a terminal status': 'async-poll-terminal',
  'terminal status in the terminal set': 'async-poll-terminal',
  'stays terminal': 'async-poll-terminal',
  'cancel after terminal': 'async-poll-terminal',
  'waitUntilFinished true': 'async-poll-terminal',
  'waitUntilFinished false': 'async-202-location',
};

/** Async job kinds (a POST answering 202 with Location) and their transitions. */
function jobTransitions(contract: Contract): Array<{ subject: string; operationId: string; rule: string }> {
  const cells: Array<{ subject: string; operationId: string; rule: string }> = [];
  for (const create of contract.operations) {
    const accepted = create.responses['202'];
    if (create.method !== 'POST' || hasPathId(create) || !accepted || !('Location' in accepted.headers)) continue;
    const kind = singular(create.path.split('/').pop() ?? '');
    const poll = contract.operations.find((op) => op.method === 'GET' && op.path === `${create.path}/{uuid}`);
    const cancel = contract.operations.find((op) => op.method === 'POST' && op.path === `${create.path}/{uuid}/cancel`);
    const push = (transition: string, op: Operation) =>
      cells.push({ subject: `${kind} ${transition}`, operationId: op.operationId, rule: TRANSITION_RULES[transition] });
    push('create', create);
    if (poll)
      for (const transition of ['poll to a terminal status', 'terminal status in the terminal set', 'stays terminal'])
        push(transition, poll);
    if (cancel) for (const transition of ['cancel before terminal', 'cancel after terminal']) push(transition, cancel);
    if ('waitUntilFinished' in bodyProperties(create))
      for (const transition of ['waitUntilFinished true', 'waitUntilFinished false']) push(transition, create);
  }
  return cells;
}

/** Statuses the description states for an operation; the rest of its declared statuses are the contract's choice. */
function statedStatuses(contract: Contract, op: Operation): Set<string> {
  const stated = new Set(['401', '429']);
  // The async pattern names 202; the idempotency rules 409 and 422.
  for (const [status, response] of Object.entries(op.responses))
    if (statedOf(response.node) !== undefined) stated.add(status);
  if (op.responses['202'] && 'Location' in op.responses['202'].headers) stated.add('202');
  if (isWrite(op)) for (const status of ['409', '422']) stated.add(status);
  // Failure statuses, as the suite judges them (conformance/lib/stated): only where the description names an
  // operation's (the suppressions list, and its 200). Elsewhere "the status code of each failure per operation: not
  // shown", so a bound the description states does not make its 400 stated: another 4xx there is a warning.
  const named = describedStatuses(op);
  if (named !== undefined) for (const status of ['200', ...(named.match(/\b\d{3}\b/g) ?? [])]) stated.add(status);
  return new Set([...stated].filter((status) => status in op.responses));
}

function drafts(contract: Contract): Draft[] {
  const cells: Draft[] = [];
  for (const rule of contract.rules) {
    const stated = statedOf(rule.node) !== undefined;
    const notJudged = rule.node['x-not-judged'];
    const dimensions = appliesTo(rule.node);
    if (dimensions.length === 0 || typeof notJudged === 'string')
      cells.push({
        rule: rule.id,
        dimension: 'rule',
        subject: 'the rule as a whole',
        stated,
        reason: typeof notJudged === 'string' ? notJudged : undefined,
      });
    if (typeof notJudged === 'string') continue;
    const add = (dimension: Dimension, subject: string, extra: Partial<Draft> = {}) =>
      cells.push({ rule: rule.id, dimension, subject, stated, ...extra });
    for (const dimension of dimensions) {
      if (dimension === 'operations')
        for (const op of contract.operations) add(dimension, op.operationId, { operationId: op.operationId });
      if (dimension === 'writes')
        for (const op of contract.operations.filter(isWrite))
          add(dimension, op.operationId, { operationId: op.operationId });
      if (dimension === 'bounds' && rule.id === 'idempotency-key-length')
        for (const op of contract.operations)
          for (const parameter of op.parameters.filter((p) => p.in === 'header'))
            // "a string of at most 255 characters": the upper bound is the stated one.
            for (const keyword of ['maxLength'].filter((k) => k in parameter.schema))
              add(dimension, `${op.operationId} header:${parameter.name}:${keyword}`, {
                operationId: op.operationId,
                stated: stated && statedOf(parameter.node) !== undefined,
              });
      if (dimension === 'bounds' && rule.id !== 'idempotency-key-length')
        for (const op of contract.operations)
          for (const invalid of invalidRequestsOf(op)) {
            if (invalid.location === 'header') continue;
            add(dimension, `${op.operationId} ${invalid.location}:${invalid.path || 'body'}:${invalid.breaks}`, {
              operationId: op.operationId,
              stated:
                stated &&
                statedAt(op, invalid.location, invalid.path) !== undefined &&
                assumedAt(op, invalid.location, invalid.path) === undefined,
            });
          }
      if (dimension === 'statuses')
        for (const op of contract.operations) {
          const own = statedStatuses(contract, op);
          for (const status of Object.keys(op.responses))
            add(dimension, `${op.operationId} ${status}`, { operationId: op.operationId, stated: own.has(status) });
        }
      if (dimension === 'resources')
        for (const { kind, way, operationId, stated: wayStated, reason } of resourceWays(contract))
          add(dimension, `${kind} via ${way}`, { operationId, stated: stated && wayStated, reason });
      if (dimension === 'jobs')
        for (const { subject, operationId, rule: owner } of jobTransitions(contract))
          if (owner === rule.id) add(dimension, subject, { operationId });
      if (dimension === 'credentials') for (const channel of CREDENTIAL_CHANNELS) add(dimension, channel);
      if (dimension === 'rate-limit')
        for (const fact of RATE_LIMIT_FACTS.filter(
          (f) => /Retry-After/.test(f) === (rule.id === 'ratelimit-429-retry-after'),
        ))
          add(dimension, fact);
      if (dimension === 'sql') {
        const query = contract.operations.find((op) => op.operationId === 'executeQuery');
        for (const table of queryTables(contract))
          for (const form of Object.keys(SQL_FORMS))
            add(dimension, `${table} ${form}`, { operationId: query?.operationId });
        add(dimension, 'write statements refused');
      }
      if (dimension === 'list-filters')
        for (const op of contract.operations.filter((o) => o.method === 'GET' && !hasPathId(o)))
          for (const parameter of op.parameters.filter((p) => p.in === 'query' && p.schema.type === 'array'))
            add(dimension, `${op.operationId} ${parameter.name}`, {
              operationId: op.operationId,
              stated: stated && statedOf(parameter.node) !== undefined,
            });
    }
  }
  return cells;
}

/** Whether a `covers` pattern (`*` any run of characters) matches a cell id. */
export function patternMatches(pattern: string, id: string): boolean {
  const regex = new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return regex.test(id);
}

export type MatrixOptions = {
  /** Operations selected (--operations, --tags, --skip-tags); all when undefined. */
  operations?: string[];
  /** Checks that ran and were not skipped; all when undefined (the static matrix). */
  ran?: string[];
};

/** The matrix: every cell with the checks that judge it, or the reason none does. */
export function coverageMatrix(contract: Contract, checks: Check[], options: MatrixOptions = {}): Cell[] {
  const seen = new Set<string>();
  const unique = drafts(contract).filter((draft) => {
    const id = `${draft.rule}: ${draft.subject}`;
    return !seen.has(id) && seen.add(id);
  });
  return unique.map((draft): Cell => {
    const id = `${draft.rule}: ${draft.subject}`;
    const declined = checks.flatMap((check) =>
      Object.entries(check.declines ?? {})
        .filter(([pattern]) => patternMatches(pattern, id))
        .map(([, why]) => `${why} (${check.id})`),
    );
    // A cell a check declines is not judged by it, unless its `covers` names that cell exactly.
    const judgedBy = checks
      .filter(
        (check) =>
          (check.covers ?? []).includes(id) ||
          ((check.covers ?? []).some((pattern) => patternMatches(pattern, id)) &&
            !Object.keys(check.declines ?? {}).some((pattern) => patternMatches(pattern, id))),
      )
      .map((check) => check.id);
    let reason = draft.reason ?? (judgedBy.length === 0 ? declined[0] : undefined);
    if (!reason && judgedBy.length === 0)
      reason = draft.stated ? undefined : 'not stated: the contract assumes it (a server reading it otherwise warns)';
    if (!reason && draft.operationId && options.operations && !options.operations.includes(draft.operationId))
      reason = `filtered out: ${draft.operationId} is not selected`;
    const ran = options.ran;
    if (!reason && ran && judgedBy.length > 0 && !judgedBy.some((checkId) => ran.includes(checkId)))
      reason = `not run: ${judgedBy.join(', ')} skipped or not selected`;
    return { ...draft, id, judgedBy, reason };
  });
}

export type CoverageFigures = { stated: number; judged: number; percent: number; unjudged: Cell[] };

/** Stated cells judged in this run (a check covering them ran), as a share of all stated cells. */
export function coverageFigures(cells: Cell[]): CoverageFigures {
  const stated = cells.filter((cell) => cell.stated);
  const judged = stated.filter((cell) => cell.judgedBy.length > 0 && cell.reason === undefined);
  return {
    stated: stated.length,
    judged: judged.length,
    percent: stated.length === 0 ? 100 : (judged.length / stated.length) * 100,
    unjudged: stated.filter((cell) => cell.judgedBy.length === 0 && cell.reason === undefined),
  };
}

/** The matrix as text, one rule a block: `✓ cell — checks` or `· cell — reason`. */
export function formatMatrix(cells: Cell[]): string {
  const lines: string[] = [];
  let rule = '';
  for (const cell of cells) {
    if (cell.rule !== rule) {
      rule = cell.rule;
      lines.push('', `${rule}`);
    }
    const mark = cell.reason !== undefined ? '·' : cell.judgedBy.length > 0 ? '✓' : cell.stated ? '✗' : '·';
    const tail =
      cell.reason ?? (cell.judgedBy.length > 0 ? cell.judgedBy.join(', ') : 'NO CHECK JUDGES THIS STATED CELL');
    lines.push(`  ${mark} ${cell.dimension.padEnd(12)} ${cell.subject}${cell.stated ? '' : ' (assumed)'} — ${tail}`);
  }
  const figures = coverageFigures(cells);
  lines.push(
    '',
    `stated cells judged: ${figures.judged} of ${figures.stated} (${figures.percent.toFixed(1)} %); ${cells.length - figures.stated} assumed cells`,
  );
  return lines.join('\n');
}

/** The matrix of a finished run: cells of operations it left out, and of checks that were skipped, say so. */
export function runMatrix(contract: Contract, checks: Check[], summary: RunSummary): Cell[] {
  return coverageMatrix(contract, checks, {
    operations: summary.operations,
    ran: summary.results.filter((result) => result.status !== 'skipped').map((result) => result.id),
  });
}
