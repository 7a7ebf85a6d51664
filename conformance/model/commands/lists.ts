/**
 * Oracles for reads of a list (x-rules list-filters-and-count, workspace-scoping). Paging: the pages of a list,
 * read with `limit` and successive `offset`s, concatenate to the whole list (no item on two pages, none missing)
 * and each page's `count` is the whole list's. Filters: every value of every enumerated filter, alone and all
 * together, answers only items of that value, their union is the all-values answer, and every item stays in the
 * caller's workspace. Where the parameters' names or bounds are assumed rather than stated, a disagreement is a
 * warning quoting that; another workspace's item is a failure whatever the parameter.
 */
import type fc from 'fast-check';
import type { Exchange } from '../../lib/http-client';
import type { ListRole } from '../derive';
import { fail, send, type Real } from '../real';
import { pick, type Tenant, type WorldModel } from '../world';

type Item = Record<string, unknown>;
type Page = { exchange: Exchange; items: Item[]; count?: number };

async function read(
  model: WorldModel,
  real: Real,
  role: ListRole,
  tenant: Tenant,
  query: Array<[string, string]>,
): Promise<Page | undefined> {
  const exchange = await send(model, real, {
    method: 'GET',
    path: role.op.path,
    query,
    auth: tenant,
    operationId: role.op.operationId,
  });
  if (exchange.response?.status !== 200) return undefined;
  const body = exchange.response.body as Record<string, unknown> | undefined;
  const items = body?.[role.items];
  if (!Array.isArray(items)) return undefined;
  return {
    exchange,
    items: items.filter((item): item is Item => !!item && typeof item === 'object'),
    count: typeof body?.count === 'number' ? body.count : undefined,
  };
}

const idOf = (item: Item) => (typeof item.uuid === 'string' ? item.uuid : JSON.stringify(item));

/** Every item of a page is the caller's: its workspaceUuid, when it shows one, is the caller's (public items aside). */
function judgeWorkspace(real: Real, role: ListRole, tenant: Tenant, page: Page, what: string): void {
  const mine = real.facts[tenant]?.workspaceUuid;
  if (!mine) return;
  const stray = page.items.find(
    (item) => typeof item.workspaceUuid === 'string' && item.workspaceUuid !== mine && item.isPublic !== true,
  );
  if (stray)
    fail({
      ruleId: 'workspace-scoping',
      title: `${role.op.operationId} ${what} answers another workspace's item to workspace ${tenant.toUpperCase()}`,
      expected: `only items of workspace ${mine}: All data is scoped to the workspace of the caller`,
      received: JSON.stringify(stray).slice(0, 300),
      exchange: page.exchange,
    });
}

/** A stated rule fails; one resting on assumed parameter names or bounds warns, quoting that. */
function judge(
  real: Real,
  stated: boolean,
  input: { title: string; expected: string; received: string; exchange: Exchange; sequence?: Exchange[] },
): void {
  if (stated) fail({ ruleId: 'list-filters-and-count', ...input });
  real.ctx.report({
    ruleId: 'list-filters-and-count',
    severity: 'warning',
    ...input,
    assumption:
      "The names and bounds of this list's parameters are not shown; the contract names them, and a server may know them otherwise.",
  });
}

function limitQuery(role: ListRole): Array<[string, string]> {
  return role.paging ? [[role.paging.limit.name, String(role.paging.max)]] : [];
}

export class PageCommand implements fc.AsyncCommand<WorldModel, Real> {
  constructor(
    readonly list: number,
    readonly tenant: Tenant,
    readonly pages: number,
  ) {}

  check(model: Readonly<WorldModel>): boolean {
    return model.allowance > this.pages + 1;
  }

  async run(model: WorldModel, real: Real): Promise<void> {
    const role = pick(
      real.roles.lists.filter((l) => l.paging),
      this.list,
    );
    if (!role?.paging || !real.facts[this.tenant]) return;
    const { limit, offset, max, stated } = role.paging;
    const whole = await read(model, real, role, this.tenant, [[limit.name, String(max)]]);
    if (!whole) return;
    judgeWorkspace(real, role, this.tenant, whole, `with ${limit.name}=${max}`);
    if (whole.items.length >= max) return;
    if (whole.count !== undefined && whole.count !== whole.items.length)
      judge(real, stated, {
        title: `${role.op.operationId}'s count is not the total of its items`,
        expected: `count ${whole.items.length} (every item fits on the page)`,
        received: `count ${whole.count}`,
        exchange: whole.exchange,
      });
    const size = Math.max(1, Math.ceil(whole.items.length / this.pages));
    const seen = new Map<string, number>();
    const sequence: Exchange[] = [whole.exchange];
    for (let at = 0, n = 0; n <= this.pages && (at < whole.items.length || n === 0); at += size, n++) {
      const page = await read(model, real, role, this.tenant, [
        [limit.name, String(size)],
        [offset.name, String(at)],
      ]);
      if (!page) return;
      sequence.push(page.exchange);
      judgeWorkspace(real, role, this.tenant, page, `page at ${offset.name}=${at}`);
      if (whole.count !== undefined && page.count !== undefined && page.count !== whole.count)
        judge(real, stated, {
          title: `${role.op.operationId}'s count changes with the page`,
          expected: `count ${whole.count} on every page (the total matching the filters)`,
          received: `count ${page.count} with ${limit.name}=${size}&${offset.name}=${at}`,
          exchange: page.exchange,
          sequence,
        });
      for (const item of page.items) {
        const id = idOf(item);
        const earlier = seen.get(id);
        if (earlier !== undefined)
          judge(real, stated, {
            title: `${role.op.operationId} page ${n + 1} repeats an item of page ${earlier + 1}`,
            expected: `pages of ${size} that concatenate to the whole list, each item once`,
            received: `${id} on both pages (${offset.name}=${at})`,
            exchange: page.exchange,
            sequence,
          });
        seen.set(id, n);
      }
    }
    const missing = whole.items.find((item) => !seen.has(idOf(item)));
    if (missing)
      judge(real, stated, {
        title: `${role.op.operationId}'s pages leave out an item of the whole list`,
        expected: `pages of ${size} that concatenate to the ${whole.items.length} items of the whole list`,
        received: `${idOf(missing)} is on no page; ${seen.size} items were`,
        exchange: sequence[sequence.length - 1],
        sequence,
      });
  }

  toString(): string {
    return `page(${this.list},${this.tenant},${this.pages})`;
  }
}

/** The item field a filter selects by (`reasons` → `reason`, `categories` → `category`), as the items name it. */
function fieldOf(items: Item[], name: string): string | undefined {
  const candidates = [name, name.replace(/ies$/, 'y'), name.replace(/s$/, '')];
  return candidates.find((c) => items.some((item) => item[c] !== undefined));
}

export class FilterCommand implements fc.AsyncCommand<WorldModel, Real> {
  constructor(
    readonly list: number,
    readonly tenant: Tenant,
  ) {}

  check(model: Readonly<WorldModel>): boolean {
    return model.allowance > 4;
  }

  async run(model: WorldModel, real: Real): Promise<void> {
    const role = pick(
      real.roles.lists.filter((l) => l.enumFilters.length > 0),
      this.list,
    );
    if (!role || !real.facts[this.tenant]) return;
    const base = limitQuery(role);
    const whole = await read(model, real, role, this.tenant, base);
    if (!whole) return;
    for (const { parameter, values, stated } of role.enumFilters) {
      const array = parameter.schema.type === 'array';
      const union = new Set<string>();
      for (const value of values) {
        const page = await read(model, real, role, this.tenant, [...base, [parameter.name, value]]);
        if (!page) continue;
        judgeWorkspace(real, role, this.tenant, page, `filtered by ${parameter.name}=${value}`);
        const field = fieldOf(page.items, parameter.name) ?? fieldOf(whole.items, parameter.name);
        const stray = field
          ? page.items.find((item) =>
              Array.isArray(item[field]) ? !(item[field] as unknown[]).includes(value) : item[field] !== value,
            )
          : undefined;
        if (stray && field)
          judge(real, stated, {
            title: `${role.op.operationId} filtered by ${parameter.name}=${value} answers an item of another ${field}`,
            expected: `only items whose ${field} is ${value}`,
            received: `${field} ${JSON.stringify(stray[field])}: ${JSON.stringify(stray).slice(0, 200)}`,
            exchange: page.exchange,
          });
        if (
          page.count !== undefined &&
          page.items.length < (role.paging?.max ?? Infinity) &&
          page.count !== page.items.length
        )
          judge(real, stated, {
            title: `${role.op.operationId}'s count is not the total matching ${parameter.name}=${value}`,
            expected: `count ${page.items.length}`,
            received: `count ${page.count}`,
            exchange: page.exchange,
          });
        for (const item of page.items) union.add(idOf(item));
      }
      if (!array || values.length < 2) continue;
      const all = await read(model, real, role, this.tenant, [
        ...base,
        ...values.map((v): [string, string] => [parameter.name, v]),
      ]);
      if (!all) continue;
      judgeWorkspace(real, role, this.tenant, all, `filtered by every ${parameter.name} value`);
      const ids = new Set(all.items.map(idOf));
      const onlyOne = [...union].find((id) => !ids.has(id));
      const onlyAll = [...ids].find((id) => !union.has(id));
      if ((onlyOne || onlyAll) && all.items.length < (role.paging?.max ?? Infinity))
        judge(real, stated, {
          title: `${role.op.operationId} filtered by every ${parameter.name} value is not the union of each value alone`,
          expected: `the ${union.size} items the values select one at a time`,
          received: onlyOne ? `${onlyOne} is missing` : `${onlyAll} selected by no single value`,
          exchange: all.exchange,
        });
    }
  }

  toString(): string {
    return `filter(${this.list},${this.tenant})`;
  }
}
