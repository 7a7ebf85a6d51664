/**
 * The commands' arbitraries, derived from the contract's roles: a command is drawn only where the contract has an
 * operation of its shape (creates, jobs with a reader or a cancel, lists with paging or enumerated filters, the
 * query, the export), and the second tenant's commands only with --token-b.
 */
import fc from 'fast-check';
import { conditionArbitrary, queryTables, tableColumns } from '../../lib/query';
import type { Roles } from '../derive';
import type { Real } from '../real';
import type { Tenant, WorldModel } from '../world';
import { ConcurrentRetryCommand } from './concurrent';
import { CreateCommand } from './create';
import { CredentialCommand, ROUTE_KINDS } from './credentials';
import { FailedThenRetryCommand } from './failed-then-retry';
import { CancelCommand, PollCommand } from './jobs';
import { FilterCommand, PageCommand } from './lists';
import { Provoke429Command } from './provoke-429';
import { ExportCommand, QueryCommand } from './reads-elsewhere';
import { ReadCommand } from './read';
import { ReplayCommand } from './replay';
import { ReuseCommand } from './reuse';
import type { Contract } from '../../../spec/lib';

export type ModelCommand = fc.AsyncCommand<WorldModel, Real>;

export function commandArbitraries(
  contract: Contract,
  roles: Roles,
  twoTenants: boolean,
): Array<fc.Arbitrary<ModelCommand>> {
  const tenant: fc.Arbitrary<Tenant> = twoTenants ? fc.constantFrom<Tenant>('a', 'b') : fc.constant<Tenant>('a');
  const cross = twoTenants ? fc.boolean() : fc.constant(false);
  const index = fc.nat(30);
  const out: Array<fc.Arbitrary<ModelCommand>> = [];
  const creates = roles.creates.length;
  if (creates > 0) {
    const create = fc.nat(creates - 1);
    const creating = fc
      .tuple(create, tenant, fc.boolean(), fc.integer({ min: 1, max: 3 }), cross)
      .map(([c, t, keyed, children, foreign]) => new CreateCommand(c, t, keyed, children, foreign));
    out.push(
      // Creates weigh double too: they are cheap, and what the others act on.
      creating,
      creating,
      // Replays weigh double: most defects of idempotency show only on a replay, after whatever came before; a
      // client retries more than once, so each replays two or three times.
      fc.tuple(index, fc.integer({ min: 2, max: 3 })).map(([i, times]) => new ReplayCommand(i, times)),
      fc.tuple(index, fc.integer({ min: 2, max: 3 })).map(([i, times]) => new ReplayCommand(i, times)),
      index.map((i) => new ReuseCommand(i)),
      fc
        .tuple(create, tenant, fc.integer({ min: 2, max: 3 }))
        .map(([c, t, copies]) => new ConcurrentRetryCommand(c, t, copies)),
      fc.tuple(create, tenant).map(([c, t]) => new FailedThenRetryCommand(c, t)),
    );
  }
  if (roles.creates.some((c) => c.reader)) out.push(fc.tuple(index, cross).map(([i, o]) => new PollCommand(i, o)));
  if (roles.creates.some((c) => c.cancel))
    out.push(fc.tuple(index, fc.boolean()).map(([i, o]) => new CancelCommand(i, o)));
  if (roles.reads.length > 0)
    out.push(fc.tuple(index, tenant, cross, index).map(([r, t, o, i]) => new ReadCommand(r, t, o, i)));
  if (roles.lists.some((l) => l.paging))
    out.push(fc.tuple(index, tenant, fc.integer({ min: 2, max: 4 })).map(([l, t, p]) => new PageCommand(l, t, p)));
  if (roles.lists.some((l) => l.enumFilters.length > 0))
    out.push(fc.tuple(index, tenant).map(([l, t]) => new FilterCommand(l, t)));
  if (roles.exports) out.push(fc.tuple(tenant, cross, index).map(([t, o, i]) => new ExportCommand(t, o, i)));
  const tables = roles.query ? queryTables(contract) : [];
  if (tables.length > 0)
    out.push(
      fc
        .nat(tables.length - 1)
        .chain((table) =>
          fc
            .tuple(tenant, conditionArbitrary(tableColumns(contract, tables[table]).slice(0, 4)))
            .map(([t, condition]) => new QueryCommand(t, table, condition)),
        ),
    );
  out.push(fc.tuple(fc.constantFrom(...ROUTE_KINDS), index).map(([route, i]) => new CredentialCommand(route, i)));
  if (roles.lists.length > 0) out.push(tenant.map((t) => new Provoke429Command(t)));
  return out;
}
