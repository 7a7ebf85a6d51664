/**
 * What a run covers: `--operations` and `--tags` (minus `--skip-tags`) restrict the contract the checks see and
 * the requests they may send; `--shard i/n` deals the checks, and the items of checks that fan out, round-robin.
 */
import { ConfigError, type RunConfig } from '../config';
import type { HttpClient } from '../lib/http-client';
import type { Contract, Operation } from '../../spec/lib';

/** Thrown when a check would send a request to an operation outside the selection: the check is skipped. */
export class OperationNotSelected extends Error {
  constructor(readonly operationId: string) {
    super(`needs ${operationId}, which is outside the selected operations`);
    this.name = 'OperationNotSelected';
  }
}

export function tagsOf(op: Operation): string[] {
  return op.tags;
}

export function selectOperations(
  contract: Contract,
  config: Pick<RunConfig, 'operations' | 'tags' | 'skipTags'>,
): Operation[] {
  const known = new Set(contract.operations.map((op) => op.operationId));
  const unknown = (config.operations ?? []).filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw new ConfigError(
      `unknown operation id(s) in --operations: ${unknown.join(', ')}\nknown: ${[...known].join(', ')}`,
    );
  const tags = new Set(contract.operations.flatMap(tagsOf));
  const unknownTags = [...(config.tags ?? []), ...(config.skipTags ?? [])].filter((tag) => !tags.has(tag));
  if (unknownTags.length > 0)
    throw new ConfigError(
      `unknown tag(s) in --tags/--skip-tags: ${unknownTags.join(', ')}\nknown: ${[...tags].join(', ')}`,
    );
  const only = config.tags;
  return contract.operations.filter(
    (op) =>
      (!config.operations || config.operations.includes(op.operationId)) &&
      (!only || tagsOf(op).some((tag) => only.includes(tag))) &&
      !tagsOf(op).some((tag) => config.skipTags?.includes(tag)),
  );
}

export class Selection {
  readonly contract: Contract;
  readonly operations: Operation[];
  private readonly ids: Set<string>;
  private readonly whole = new Map<string, number>();
  private offset = 0;

  constructor(
    readonly full: Contract,
    config: Pick<RunConfig, 'operations' | 'tags' | 'skipTags' | 'shard'>,
    private readonly shard = config.shard,
  ) {
    this.operations = selectOperations(full, config);
    this.ids = new Set(this.operations.map((op) => op.operationId));
    const restricted = this.operations.length < full.operations.length;
    // The checks see only the selected operations; routing still knows them all, to refuse the others.
    this.contract = restricted
      ? { ...full, operations: this.operations, operation: (id) => (this.ids.has(id) ? full.operation(id) : undefined) }
      : full;
  }

  has(operationId: string): boolean {
    return this.ids.has(operationId);
  }

  get restricted(): boolean {
    return this.operations.length < this.full.operations.length;
  }

  /** Deals whole checks round-robin over the shards; the items of fanning-out checks continue the deal. */
  deal(checkIds: string[]): void {
    checkIds.forEach((id, i) => this.whole.set(id, i));
    this.offset = checkIds.length;
  }

  checkInShard(checkId: string): boolean {
    if (!this.shard) return true;
    const index = this.whole.get(checkId);
    return index === undefined || index % this.shard.count === this.shard.index - 1;
  }

  itemInShard(index: number): boolean {
    if (!this.shard) return true;
    return (this.offset + index) % this.shard.count === this.shard.index - 1;
  }

  /** Refuses a request to an operation outside the selection (paths below the base URL or absolute URLs). */
  assertSelected(method: string, path: string, client: HttpClient): void {
    if (!this.restricted) return;
    let below = path;
    if (/^https?:\/\//.test(path)) {
      const url = new URL(path);
      below = url.pathname.startsWith(client.basePath) ? url.pathname.slice(client.basePath.length) : url.pathname;
    }
    const op = this.full.findOperation(method, below.split('?')[0]);
    if (op && !this.ids.has(op.operationId)) throw new OperationNotSelected(op.operationId);
  }
}
