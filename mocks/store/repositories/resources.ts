import { whenKnown, type MaybePromise } from '../../maybe-promise';
import { createByteBudget, type ByteBudget, type Reservation } from '../byte-budget';
import { workspaceKey } from '../keys';
import type { Guard, Write } from '../port';
import type { PartTry, PendingCommit, PendingPart } from '../pending-commit';
import type { Collection, EntryOf, FixedList, FixedListOf, JsonRecord, StoreLimits } from '../types';
import { decodeEntry, encodeEntry } from '../stored-form';
import type { WorkspaceSlice } from './workspace-slice';

/** A compare-and-set that keeps losing to other writers gives up after this many tries (500, never a lost write). */
export const MAX_UPDATE_TRIES = 50;

/**
 * The resources a workspace owns (MCP servers, workflows, models, domains, environment variables, and the hashes
 * of runs and batches read by uuid), its read-only lists (suppressions, allocations, recipes) and its settings.
 * Edits are compare-and-set, removals guarded by presence.
 */
export function createResourceRepository(slice: WorkspaceSlice, limits: StoreLimits) {
  const { readWorkspace, commitWorkspace } = slice;
  // Byte bound beside the port's count bound: the oldest created servers go once the budget is spent.
  const mcpServerBudget = createByteBudget(limits.mcpServerBytesPerWorkspace, limits.mcpServersPerWorkspace);

  /** A read-only list: at once from a store in this process (its parse cached while its text is unchanged). */
  const readList = <L extends FixedList>(workspaceUuid: string, list: L): MaybePromise<FixedListOf<L>> => {
    const at = workspaceKey(workspaceUuid, list);
    return whenKnown(readWorkspace(workspaceUuid, [{ op: 'get', key: at }]), ({ values }) =>
      values[0] === null ? ([] as unknown as FixedListOf<L>) : slice.parseCached<FixedListOf<L>>(at, values[0]),
    );
  };

  /** Compare-and-set of one value: `change` gets the current text's value; undefined leaves it as it is. */
  const compareAndSet = async <T>(
    workspaceUuid: string,
    read: { key: string; field?: string },
    change: (current: T) => T | undefined,
    what: string,
    form: { decode: (text: string) => T; encode: (value: T) => string } = {
      decode: (text) => JSON.parse(text) as T,
      encode: (value) => JSON.stringify(value),
    },
  ): Promise<{ value?: T; found: boolean }> => {
    for (let attempt = 0; attempt < MAX_UPDATE_TRIES; attempt++) {
      const [text] = (
        await readWorkspace(workspaceUuid, [
          read.field === undefined
            ? ({ op: 'get', key: read.key } as const)
            : ({ op: 'hget', key: read.key, field: read.field } as const),
        ])
      ).values;
      if (text === null && read.field !== undefined) return { found: false };
      const current = form.decode(text ?? '{}');
      const next = change(form.decode(text ?? '{}'));
      if (next === undefined) return { value: current, found: true };
      const value = form.encode(next);
      const write: Write =
        read.field === undefined
          ? { op: 'set', key: read.key, value }
          : { op: 'hset', key: read.key, field: read.field, value };
      const guard: Guard = text === null ? { ...read, is: 'absent' } : { ...read, is: 'equals', value: text };
      if (await commitWorkspace(workspaceUuid, [write], [guard])) return { value: next, found: true };
    }
    throw new Error(`${what}: too many concurrent changes`);
  };

  const joinMcpServer = (workspaceUuid: string, mcpServer: JsonRecord, withAnswer: PendingCommit): string => {
    const text = JSON.stringify(mcpServer);
    withAnswer.add(new McpServerWrite(slice, mcpServerBudget, limits, workspaceUuid, mcpServer.uuid as string, text));
    return text;
  };

  return {
    suppressions: (workspaceUuid: string) => readList(workspaceUuid, 'suppressions'),
    allocations: (workspaceUuid: string) => readList(workspaceUuid, 'allocations'),
    recipes: (workspaceUuid: string) => readList(workspaceUuid, 'recipes'),

    async getWorkspace(workspaceUuid: string): Promise<JsonRecord> {
      const at = workspaceKey(workspaceUuid, 'workspace');
      const { values } = await readWorkspace(workspaceUuid, [{ op: 'get', key: at }]);
      return JSON.parse(values[0] ?? '{}') as JsonRecord;
    },

    /** Replaces the workspace settings by `change(current)`, by compare-and-set: concurrent edits never get lost. */
    async updateWorkspace(workspaceUuid: string, change: (current: JsonRecord) => JsonRecord): Promise<JsonRecord> {
      const at = { key: workspaceKey(workspaceUuid, 'workspace') };
      return (await compareAndSet(workspaceUuid, at, change, 'updateWorkspace')).value as JsonRecord;
    },

    /** One entry by uuid: at once from a store in this process. */
    get<C extends Collection>(
      workspaceUuid: string,
      collection: C,
      uuid: string,
    ): MaybePromise<EntryOf<C> | undefined> {
      const at = workspaceKey(workspaceUuid, collection);
      return whenKnown(readWorkspace(workspaceUuid, [{ op: 'hget', key: at, field: uuid }]), ({ values }) =>
        values[0] === null ? undefined : decodeEntry(collection, values[0], workspaceUuid, uuid),
      );
    },

    /** Every entry of a collection, oldest written first. */
    async list<C extends Collection>(workspaceUuid: string, collection: C): Promise<EntryOf<C>[]> {
      const at = workspaceKey(workspaceUuid, collection);
      const { values } = await readWorkspace(workspaceUuid, [{ op: 'hgetall', key: at }]);
      return Object.entries(values[0]).map(([uuid, text]) => decodeEntry(collection, text, workspaceUuid, uuid));
    },

    /**
     * Changes one entry by compare-and-set: `change` gets the current entry and returns the new one, or undefined
     * to leave it as it is. Resolves what the entry is afterwards, or undefined when there is no such entry.
     */
    async update<C extends Collection>(
      workspaceUuid: string,
      collection: C,
      uuid: string,
      change: (current: EntryOf<C>) => EntryOf<C> | undefined,
    ): Promise<EntryOf<C> | undefined> {
      const at = { key: workspaceKey(workspaceUuid, collection), field: uuid };
      const form = {
        decode: (text: string) => decodeEntry(collection, text, workspaceUuid, uuid),
        encode: (value: EntryOf<C>) => encodeEntry(collection, value, workspaceUuid, uuid),
      };
      return (await compareAndSet(workspaceUuid, at, change, `update ${collection}`, form)).value;
    },

    /** Removes one entry; false when there was none (so of two concurrent removals one finds nothing). */
    async remove(workspaceUuid: string, collection: Collection, uuid: string): Promise<boolean> {
      const at = workspaceKey(workspaceUuid, collection);
      return commitWorkspace(
        workspaceUuid,
        [{ op: 'hdelete', key: at, field: uuid }],
        [{ key: at, field: uuid, is: 'present' }],
      );
    },

    /**
     * Adds an MCP server created through the API; the oldest created ones go beyond the cap and the byte budget,
     * in the same commit (nothing can fail once the server is stored). Resolves the server's JSON text as stored.
     */
    async addMcpServer(workspaceUuid: string, mcpServer: JsonRecord): Promise<string> {
      const text = JSON.stringify(mcpServer);
      await new McpServerWrite(slice, mcpServerBudget, limits, workspaceUuid, mcpServer.uuid as string, text).alone();
      return text;
    },

    /**
     * `addMcpServer` under an Idempotency-Key: the server goes into the store with the key's answer (one commit,
     * `withAnswer`), so there is nothing to wait for here. Returns the server's JSON text as it will be stored.
     */
    joinMcpServer,

    /** Forgets the bytes of a workspace's created MCP servers, or every workspace's (their reset removed them). */
    forgetMcpServerBytes(workspaceUuid?: string): void {
      mcpServerBudget.clear(workspaceUuid);
    },

    /** Takes back an MCP server this request created (its request failed after the write). */
    async removeCreatedMcpServer(workspaceUuid: string, uuid: string): Promise<void> {
      mcpServerBudget.remove(workspaceUuid, uuid);
      await slice.port.commit([
        { op: 'hdelete', key: workspaceKey(workspaceUuid, 'mcpServers'), field: uuid },
        { op: 'remove', key: workspaceKey(workspaceUuid, 'mcpServers-created'), values: [uuid] },
      ]);
    },
  };
}

/**
 * A created MCP server's write, with the oldest created servers the byte budget releases for it (reserved for
 * each try, in the turn it is sent). A class rather than closures: one is made on every create.
 */
class McpServerWrite implements PendingPart {
  constructor(
    private readonly slice: WorkspaceSlice,
    private readonly budget: ByteBudget,
    private readonly limits: StoreLimits,
    private readonly workspaceUuid: string,
    private readonly uuid: string,
    /** Its stored text, which is also what it weighs (a character a byte, as the other byte budgets count). */
    private readonly text: string,
  ) {}

  take(): PartTry {
    const { changes, reservation } = this.#reserve();
    return this.slice.workspaceTry(this.workspaceUuid, changes, [], reservation);
  }

  /** The same write in its own commit (no Idempotency-Key, or a key past its age). */
  async alone(): Promise<boolean> {
    const { changes, reservation } = this.#reserve();
    let done = false;
    try {
      done = await this.slice.commitWorkspace(this.workspaceUuid, changes);
    } finally {
      reservation.settle(done);
    }
    return done;
  }

  /** Its writes, with the oldest created servers the byte budget releases for it (reserved now). */
  #reserve(): { changes: Write[]; reservation: Reservation } {
    const { workspaceUuid, uuid } = this;
    const reservation = this.budget.reserve(workspaceUuid, uuid, this.text.length);
    const servers = workspaceKey(workspaceUuid, 'mcpServers');
    const changes: Write[] = [
      { op: 'hset', key: servers, field: uuid, value: this.text },
      {
        op: 'append',
        key: workspaceKey(workspaceUuid, 'mcpServers-created'),
        values: [uuid],
        keepLast: this.limits.mcpServersPerWorkspace,
        dropFrom: servers,
      },
    ];
    for (const released of reservation.released) changes.push({ op: 'hdelete', key: servers, field: released });
    return { changes, reservation };
  }

  ready(): Promise<unknown> {
    return this.slice.ensureSeeded([this.workspaceUuid]);
  }
}
