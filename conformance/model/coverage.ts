/**
 * The coverage sequence: one command of every kind for every role the contract gives it (each create replayed,
 * reused, retried after a failure and retried concurrently, made without a key and with a reference to the other workspace; each job polled and cancelled; each read, each paged
 * list, each list with enumerated filters, each query table, the export; a wrong credential on every kind of
 * route; a 429 and what follows). It runs first, as fast-check's example, so a defect that only one kind of command
 * reaches is judged in every run whatever sequences the seed draws; the drawn sequences then explore orders and
 * repetitions. It replays with `--path model:0` like any other case (it does not shrink: it is already one of each).
 */
import type { Condition } from '../lib/query';
import { queryTables } from '../lib/query';
import type { Contract } from '../../spec/lib';
import type { Roles } from './derive';
import type { ModelCommand } from './commands';
import { ConcurrentRetryCommand } from './commands/concurrent';
import { CreateCommand } from './commands/create';
import { CredentialCommand, ROUTE_KINDS } from './commands/credentials';
import { FailedThenRetryCommand } from './commands/failed-then-retry';
import { CancelCommand, PollCommand } from './commands/jobs';
import { FilterCommand, PageCommand } from './commands/lists';
import { Provoke429Command } from './commands/provoke-429';
import { ExportCommand, QueryCommand } from './commands/reads-elsewhere';
import { ReadCommand } from './commands/read';
import { ReplayCommand } from './commands/replay';
import { ReuseCommand } from './commands/reuse';

/** `TRUE AND NOT FALSE`: boolean structure (AND, NOT) under the command's own top-level OR, on any table. */
const STRUCTURED: Condition = {
  kind: 'and',
  left: { kind: 'const', value: true },
  right: { kind: 'not', inner: { kind: 'const', value: false } },
};

const indices = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/**
 * The commands in the order they run: the cheap reads of lists and the query first (the kinds drawn least often
 * per role), then what acts on the records every sequence starts from, the credentials, and the 429 last so
 * nothing before it waits for a window.
 */
export function coverageSequence(contract: Contract, roles: Roles, twoTenants: boolean): ModelCommand[] {
  const out: ModelCommand[] = [];
  const paged = roles.lists.filter((l) => l.paging);
  const filtered = roles.lists.filter((l) => l.enumFilters.length > 0);
  for (const i of indices(paged.length)) out.push(new PageCommand(i, 'a', 3));
  for (const i of indices(filtered.length)) out.push(new FilterCommand(i, 'a'));
  if (roles.query)
    for (const t of indices(queryTables(contract).length)) out.push(new QueryCommand('a', t, STRUCTURED));
  for (const r of indices(roles.reads.length)) {
    out.push(new ReadCommand(r, 'a', false, 0));
    if (twoTenants) out.push(new ReadCommand(r, 'b', true, 0));
  }
  if (roles.exports) out.push(new ExportCommand('a', twoTenants, 0));
  for (const c of indices(roles.creates.length)) {
    out.push(new ReplayCommand(c, 2), new ReuseCommand(c));
    out.push(new FailedThenRetryCommand(c, 'a'), new ConcurrentRetryCommand(c, 'a', 2));
    // A create without a key (every sequence starts from keyed ones), and one whose body references a record of
    // the other workspace.
    out.push(new CreateCommand(c, 'a', false, 1, false));
    if (twoTenants) out.push(new CreateCommand(c, 'a', true, 2, true));
  }
  const jobs = roles.creates.filter((c) => c.job);
  if (roles.creates.some((c) => c.reader))
    for (const j of indices(Math.max(1, jobs.length))) out.push(new PollCommand(j, twoTenants));
  if (roles.creates.some((c) => c.cancel)) out.push(new CancelCommand(0, twoTenants));
  for (const route of ROUTE_KINDS) out.push(new CredentialCommand(route, 0));
  if (roles.lists.length > 0) out.push(new Provoke429Command('a'));
  return out;
}
