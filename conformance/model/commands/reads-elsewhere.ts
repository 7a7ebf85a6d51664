/**
 * Reads through the export and the SQL query (x-rules workspace-scoping, query-read-only-scoped,
 * list-filters-and-count). The export selected by the caller's own run includes that run (a write read back where
 * the contract lets a client read it: "run uuids to include"), and selected by the other workspace's ids never shows
 * the other workspace's runs, in its answer or its file. A query with a generated boolean condition (OR, AND, NOT,
 * nesting, precedence as written) never answers another workspace's rows.
 */
import type fc from 'fast-check';
import { describe } from '../../lib/exchange';
import type { Exchange } from '../../lib/http-client';
import { requestBodySchema } from '../../lib/operations';
import { conditionStatement, queryTables, type Condition } from '../../lib/query';
import { fail, send, type Real } from '../real';
import { other, pick, type Tenant, type WorldModel } from '../world';

/** The export's file when its URL is on the target's origin (the suite sends nothing elsewhere). */
async function exportedFile(
  model: WorldModel,
  real: Real,
  answer: Exchange,
  tenant: Tenant,
): Promise<Exchange | undefined> {
  const url = (answer.response?.body as { url?: unknown } | undefined)?.url;
  if (typeof url !== 'string') return undefined;
  let resolved: URL;
  try {
    resolved = new URL(url, answer.request.url);
  } catch {
    return undefined;
  }
  if (resolved.origin !== new URL(real.ctx.config.target).origin) return undefined;
  return send(model, real, { method: 'GET', path: resolved.toString(), auth: tenant }, [answer]);
}

export class ExportCommand implements fc.AsyncCommand<WorldModel, Real> {
  constructor(
    readonly tenant: Tenant,
    readonly fromOther: boolean,
    readonly index: number,
  ) {}

  check(model: Readonly<WorldModel>): boolean {
    return model.allowance > 2;
  }

  async run(model: WorldModel, real: Real): Promise<void> {
    const op = real.roles.exports;
    const owner = this.fromOther ? other(this.tenant) : this.tenant;
    const ownerFacts = real.facts[owner];
    if (!op || !real.facts[this.tenant] || !ownerFacts) return;
    const properties: Record<string, { type?: unknown }> = requestBodySchema(op)?.properties ?? {};
    // The runs the model saw the owner create, by the export's own field of run uuids.
    const runs = model.records.filter((r) => r.tenant === owner && real.roles.creates[r.create].envelope === 'run');
    const run = pick(runs, this.index);
    const body: Record<string, unknown> = {};
    if (run && properties.uuids?.type === 'array') body.uuids = [run.uuid];
    if (this.fromOther)
      for (const [field, schema] of Object.entries(properties)) {
        const ids =
          ownerFacts.idsByField.get(field) ??
          model.records
            .filter((r) => r.tenant === owner && `${real.roles.creates[r.create].envelope}Uuid` === field)
            .map((r) => r.uuid);
        if (schema.type !== 'array' && ids.length > 0 && !(field in body)) body[field] = pick(ids, this.index);
      }
    if (Object.keys(body).length === 0) return;
    const answer = await send(model, real, {
      method: op.method,
      path: op.path,
      body,
      auth: this.tenant,
      operationId: op.operationId,
    });
    if (answer.response?.status !== 200) return;
    const file = await exportedFile(model, real, answer, this.tenant);
    if (!file || file.response?.status !== 200 || this.fromOther || !run) return;
    if (!file.response.text.includes(run.uuid))
      fail({
        ruleId: 'list-filters-and-count',
        title: `${op.operationId} selected by the uuid of the caller's own run does not export it`,
        expected: `an export naming the run ${run.uuid} ("uuids: run uuids to include"; the run was created before)`,
        received: describe(file),
        exchange: file,
        sequence: [run.exchange, answer],
      });
  }

  toString(): string {
    return `export(${this.tenant}${this.fromOther ? ',other' : ''},${this.index})`;
  }
}

export class QueryCommand implements fc.AsyncCommand<WorldModel, Real> {
  constructor(
    readonly tenant: Tenant,
    readonly table: number,
    readonly condition: Condition,
  ) {}

  check(model: Readonly<WorldModel>): boolean {
    return model.allowance > 2;
  }

  async run(model: WorldModel, real: Real): Promise<void> {
    const op = real.roles.query;
    const table = pick(queryTables(real.ctx.contract), this.table);
    if (!op || !table || !real.facts[this.tenant]) return;
    const or = (left: Condition): Condition => ({ kind: 'or', left, right: { kind: 'const', value: false } });
    // The condition and its negation, each the first term of a top-level OR (where precedence decides a scope added
    // to the statement's text): one of them selects rows (NULLs aside), whatever the table holds.
    for (const condition of [or(this.condition), or({ kind: 'not', inner: this.condition })]) {
      const query = conditionStatement(table, condition);
      const exchange = await send(model, real, {
        method: op.method,
        path: op.path,
        body: { query },
        auth: this.tenant,
        operationId: op.operationId,
      });
      const rows = (exchange.response?.body as { rows?: unknown } | undefined)?.rows;
      const mine = real.facts[this.tenant]?.workspaceUuid;
      if (exchange.response?.status !== 200 || !Array.isArray(rows) || !mine) continue;
      const stray = rows.find(
        (row) => row && typeof row === 'object' && typeof row.workspaceUuid === 'string' && row.workspaceUuid !== mine,
      );
      if (stray)
        fail({
          ruleId: 'query-read-only-scoped',
          title: `A query of ${table} with a boolean condition (OR, AND, NOT) shows another workspace's rows`,
          expected: `only rows of workspace ${mine}: results are automatically scoped to the authenticated workspace`,
          received: `${JSON.stringify(stray).slice(0, 300)} for ${query}`,
          exchange,
        });
    }
  }

  toString(): string {
    return `query(${this.tenant},${this.table},${conditionStatement('t', this.condition)})`;
  }
}
