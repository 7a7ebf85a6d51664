import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ApiError } from '../errors';
import { createdRowTables, queryTableNames, type QueryOp, type QuerySnapshot, type QuerySource } from './tables';
import type { WorkerAnswer, WorkerMemory } from './worker/messages';
import { OldestFirst } from '../store/oldest-first';

export type PoolOptions = {
  source: QuerySource;
  /** Workers running queries side by side. */
  workers: number;
  /** Budget per query, from the moment it is queued (time spent loading a workspace's tables is not counted). */
  timeoutMs: number;
  /** Queries of one workspace running at once; the rest of the workers stay free for the other workspaces. */
  perWorkspace: number;
  /** Rows one worker keeps in its workspaces' databases; beyond it the least recently used are dropped. */
  cacheRows: number;
  maxRows: number;
  maxResultBytes: number;
  /** What one query's statement may allocate in SQLite (values, sorts, groups) beyond the worker's heap. */
  maxQueryMemoryBytes: number;
  /**
   * Memory a worker may hold (WASM heap plus JS heap) after a query beyond its databases' page caches; past it
   * the worker is replaced once the query has answered, as a WASM heap never shrinks.
   */
  maxWorkerMemoryBytes: number;
  now: () => number;
};

type Job = {
  id: number;
  workspace: string;
  sql: string;
  params?: unknown[];
  maxRows: number;
  maxResultBytes: number;
  /** The rows' single column joined into one JSON array text by the worker (see QueryMessage). */
  jsonArray?: boolean;
  deadline: number;
  /** Up to when its time in the queue has been accounted for (see `account`). */
  accountedUntil: number;
  /** Fresh loads after the worker reported its database out of date; bounded so a query cannot loop. */
  reloads: number;
  resolve(rows: object[]): void;
  reject(error: ApiError): void;
  signal?: AbortSignal;
  onAbort?: () => void;
  /** Ends the query if it is still queued when its budget runs out (a queue that does not move never hangs it). */
  queueTimer?: NodeJS.Timeout;
};
type Hosted = { version: string; rows: number; usedAt: number };
type Answer = WorkerAnswer;
type Slot = {
  worker: Worker;
  ready: boolean;
  dead: boolean;
  job?: Job;
  /**
   * What the worker does for its job: loading the workspace's database or bringing it up to date (the mock's own
   * work, not charged to the query), or running the query itself since `startedAt` (within its budget).
   */
  phase?: 'preparing' | 'running';
  startedAt: number;
  /** While preparing: the rows it loads or the changes it applies, once known. */
  preparingRows?: number;
  /**
   * Its current preparation (no `until` yet) or its last one, its start included: what the queries waiting for it
   * are not charged.
   */
  prepared?: { from: number; until?: number };
  timer?: NodeJS.Timeout;
  /** What this worker's databases hold, as far as this thread has told it: workspace → version. */
  hosted: Map<string, Hosted>;
  loading?: { id: number; done(error?: ApiError): void };
};
type BufferedChange = { workspace: string; ops: () => QueryOp[] | null; bytes: number };

/**
 * How a worker starts. The worker is TypeScript (`sql-worker.ts`); compiled (the package's dist/), it is
 * `sql-worker.js` beside this file and starts by path. From source, a worker thread does not share this thread's
 * module loader (tsx under `npm start`, ts-jest under jest), so it starts from a bootstrap that registers tsx's
 * CommonJS hook in the worker, then loads the entry.
 */
function workerStart(): { entry: string; eval: boolean } {
  if (!__filename.endsWith('.ts')) return { entry: path.join(__dirname, 'sql-worker.js'), eval: false };
  const bootstrap = [
    `require(${JSON.stringify(require.resolve('tsx/cjs/api'))}).register();`,
    `require(${JSON.stringify(path.join(__dirname, 'sql-worker.ts'))});`,
  ];
  return { entry: bootstrap.join('\n'), eval: true };
}
/**
 * A worker's young generation (V8's nursery): 8 MiB instead of up to 48. Measured with `npm run bench:memory`
 * (about 120 bytes less resident per kept run) and `npm run bench:query` (the same p50 and p99).
 */
const WORKER_YOUNG_GENERATION_MB = 8;
/** Changes kept for databases to catch up with; older ones mean a fresh load. */
const MAX_BUFFERED_CHANGES = 16_384;
/** …and their written bytes in all: beyond either bound the oldest go (a database that needed them reloads). */
const MAX_BUFFERED_BYTES = 32 * 1024 * 1024;
const MAX_RELOADS = 2;
/**
 * A workspace with this many changes (or bytes) not yet applied to its kept database is caught up unasked: well
 * before the store forgets the versions in between (it keeps a workspace's last 1024) or the buffer its changes,
 * and in steps a query of the workspace waits behind briefly (the bytes of about 7 000 created runs, which the
 * worker writes with their generated log and span rows in a few hundred ms).
 */
const CATCH_UP_CHANGES = 256;
const CATCH_UP_BYTES = MAX_BUFFERED_BYTES / 48;
/** The least a workspace waits for the busy worker holding its database before moving to another. */
const AFFINITY_WAIT_MS = 100;
/** Roughly what loading a row costs a worker (measured: about 8 s for 400 000 rows on a loaded 2-core machine). */
const LOAD_MS_PER_ROW = 0.02;
/** Rows converted and sent to a worker at a time while loading a workspace. */
const LOAD_CHUNK_ROWS = 2000;
/** How long a workspace whose query ran over budget is kept to workers holding nothing else; how many are tracked. */
const SUSPECT_MS = 60_000;
const MAX_SUSPECTS = 10_000;
/**
 * Bringing a database up to date (the changes since its last query, statuses whose phase ended) is bounded by
 * what the store buffers and holds; a worker still at it after this long is stuck and replaced.
 */
const PREPARE_GUARD_MS = 30_000;

const closedError = () => new ApiError(500, 'internal_error', 'The query engine is closed.');
/** Rows a run entering the list of created runs adds: its entry, its created log and span rows (generated). */
const ROWS_PER_LISTED_RUN = 1 + createdRowTables.length;
const rowsIn = (ops: QueryOp[]) =>
  ops.reduce(
    (n, op) =>
      n +
      ('rows' in op
        ? op.rows.length
        : op.op === 'track' && op.list === 'runs'
          ? op.uuids.length * ROWS_PER_LISTED_RUN
          : 'uuids' in op
            ? op.uuids.length
            : 0),
    0,
  );

/** How long `close` waits for its workers to stop (each is told to stop at once; this bounds a stuck one). */
const CLOSE_WAIT_MS = 5_000;

/**
 * sql.js workers, each keeping a database per workspace it served, kept current by the changes the store
 * reports, so a query costs what it reads, not what the workspace has accumulated. Scheduling is fair: one
 * queue per workspace, served round-robin, at most `perWorkspace` of a workspace's queries running at once, and a
 * query's budget counts from the moment it is queued; a query whose client went away is dropped from its queue.
 * A query that outlives its budget cannot be interrupted inside WASM, so its worker is terminated and replaced;
 * a workspace without a database picks the worker holding the least, so a runaway tenant keeps landing on the
 * worker it emptied rather than on the others' databases. The mock's own event loop never runs SQL.
 */
export class QueryWorkerPool {
  private readonly slots: Slot[] = [];
  /** Waiting queries per workspace; the map's order is the round-robin order. */
  private readonly queues = new Map<string, Job[]>();
  private readonly running = new Map<string, number>();
  private readonly changes = new Map<string, BufferedChange>();
  /** Changes per workspace since a query of it last started: what its kept database has yet to apply. */
  private readonly pending = new Map<string, { changes: number; bytes: number }>();
  private readonly catchingUp = new Set<string>();
  private changeBytes = 0;
  private dispatchTimer?: NodeJS.Timeout;
  private dispatchTimerAt = 0;
  /** Workspaces whose query was stopped at its budget, until when they are kept apart. */
  private readonly suspects = new OldestFirst<number>();
  private readonly unsubscribe?: () => void;
  private nextId = 1;
  private closed = false;
  /** Workers that died before loading SQLite; a few in a row means the engine cannot start at all. */
  private startFailures = 0;
  /** Since when no worker has been ready (start, or all replaced at once): queued queries are not charged for it. */
  private unavailableSince?: number;

  constructor(private readonly options: PoolOptions) {
    this.unavailableSince = options.now();
    for (let i = 0; i < options.workers; i++) this.slots.push(this.spawn());
    this.unsubscribe = options.source.subscribe?.((workspace, version, ops, bytes) => {
      this.changes.set(version, { workspace, ops, bytes });
      this.changeBytes += bytes;
      for (const [oldest, change] of this.changes) {
        if (this.changes.size <= MAX_BUFFERED_CHANGES && this.changeBytes <= MAX_BUFFERED_BYTES) break;
        this.changes.delete(oldest);
        this.changeBytes -= change.bytes;
      }
      this.notePending(workspace, bytes);
    });
  }

  /**
   * A kept database whose workspace is written to but not queried would fall out of the change buffer and cost a
   * full load at its next query: past a share of the buffer it is brought up to date in the background, as a
   * query of its own workspace (scheduled fairly like any other).
   */
  private notePending(workspace: string, bytes: number): void {
    if (!this.slots.some((slot) => slot.hosted.has(workspace))) {
      this.pending.delete(workspace);
      return;
    }
    const pending = this.pending.get(workspace) ?? { changes: 0, bytes: 0 };
    pending.changes += 1;
    pending.bytes += bytes;
    this.pending.set(workspace, pending);
    if (pending.changes < CATCH_UP_CHANGES && pending.bytes < CATCH_UP_BYTES) return;
    if (this.catchingUp.has(workspace) || this.queues.has(workspace)) return;
    this.catchingUp.add(workspace);
    void this.run(workspace, 'SELECT 1')
      .catch(() => undefined)
      .finally(() => this.catchingUp.delete(workspace));
  }

  /** Runs `sql` on the workspace's database; `options` carries bound parameters and other limits (the mock's own queries). */
  run(
    workspace: string,
    sql: string,
    signal?: AbortSignal,
    options: { params?: unknown[]; maxRows?: number; maxResultBytes?: number; jsonArray?: boolean } = {},
  ): Promise<object[]> {
    if (this.closed) return Promise.reject(closedError());
    return new Promise((resolve, reject) => {
      const job: Job = {
        id: this.nextId++,
        workspace,
        sql,
        params: options.params,
        maxRows: options.maxRows ?? this.options.maxRows,
        maxResultBytes: options.maxResultBytes ?? this.options.maxResultBytes,
        jsonArray: options.jsonArray,
        deadline: this.options.now() + this.options.timeoutMs,
        accountedUntil: this.options.now(),
        reloads: 0,
        resolve,
        reject,
        signal,
      };
      if (signal) {
        if (signal.aborted) return reject(new ApiError(400, 'query_cancelled', 'The request was cancelled.'));
        job.onAbort = () => this.cancel(job);
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.enqueue(job, false);
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe?.();
    if (this.dispatchTimer) clearTimeout(this.dispatchTimer);
    for (const jobs of this.queues.values()) for (const job of jobs) this.settle(job, closedError());
    this.queues.clear();
    const stopped = Promise.all(
      this.slots.map((slot) => {
        this.release(slot, closedError());
        return slot.worker.terminate();
      }),
    );
    // A worker being stopped does not keep the event loop turning until its 'exit' (Node 20: a worker that ran
    // a query, then idled unref'd, is terminated without a handle held for it). In a script with nothing else
    // to wait for, the process then ended before `close` resolved, skipping what its caller did next (exit
    // code 0). A timer holds the loop until every worker has stopped, for CLOSE_WAIT_MS at most.
    let held: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => (held = setTimeout(resolve, CLOSE_WAIT_MS)));
    try {
      await Promise.race([stopped, bound]);
    } finally {
      clearTimeout(held);
    }
  }

  private enqueue(job: Job, front: boolean) {
    const queue = this.queues.get(job.workspace);
    if (!queue) this.queues.set(job.workspace, [job]);
    else if (front) queue.unshift(job);
    else queue.push(job);
    this.armQueueTimer(job);
  }

  private armQueueTimer(job: Job) {
    if (job.queueTimer) clearTimeout(job.queueTimer);
    job.queueTimer = undefined;
    // With no worker ready the clock is stopped for queued queries: their timers start when one is.
    if (this.unavailableSince !== undefined) return;
    job.queueTimer = setTimeout(() => this.expireQueued(job), Math.max(0, job.deadline - this.options.now()));
  }

  /**
   * A queued query at its deadline: ended, unless the time it waited for workers preparing data moves it (see
   * `account`); while they still prepare, it is looked at again 100 ms later at the soonest.
   */
  private expireQueued(job: Job): void {
    const now = this.options.now();
    if (this.account(job) === 'preparing') job.deadline = Math.max(job.deadline, now + AFFINITY_WAIT_MS);
    if (job.deadline > now) return this.armQueueTimer(job);
    this.dequeue(job, this.timeoutError(true));
  }

  /**
   * Moves a queued query's deadline by the time it waited for workers preparing data (loading a workspace,
   * catching one up, starting) since it was last accounted for: the worker holding or loading its workspace's
   * database, or, for a workspace without one, every worker at once. That is the mock's own work, not charged to
   * a query, as loading and catching up its own database are not once it runs. Tells whether they still prepare.
   */
  private account(job: Job): 'preparing' | 'free' {
    const now = this.options.now();
    const live = this.slots.filter((slot) => !slot.dead);
    const holders = live.filter((slot) => slot.hosted.has(job.workspace) || slot.job?.workspace === job.workspace);
    const awaited = holders.length > 0 ? holders : live;
    let from = job.accountedUntil;
    let until = now;
    for (const { prepared } of awaited) {
      from = Math.max(from, prepared?.from ?? now);
      until = Math.min(until, prepared?.until ?? now);
    }
    if (until > from) job.deadline += until - from;
    job.accountedUntil = now;
    return awaited.length > 0 && awaited.every((slot) => !slot.ready || slot.phase === 'preparing')
      ? 'preparing'
      : 'free';
  }

  /** Takes a job out of its queue and ends it; false when it was not queued (already running or done). */
  private dequeue(job: Job, error: ApiError): boolean {
    const queue = this.queues.get(job.workspace);
    const index = queue?.indexOf(job) ?? -1;
    if (!queue || index === -1) return false;
    queue.splice(index, 1);
    if (queue.length === 0) this.queues.delete(job.workspace);
    this.settle(job, error);
    return true;
  }

  private cancel(job: Job) {
    // Already running: it ends within its budget.
    this.dequeue(job, new ApiError(400, 'query_cancelled', 'The request was cancelled before the query ran.'));
  }

  private spawn(): Slot {
    const start = workerStart();
    const worker = new Worker(start.entry, {
      eval: start.eval,
      // Rows live in WASM memory; the JS heap holds one result or one snapshot being loaded. Its young generation
      // is small: a load's rows die young, and V8's default (up to 48 MiB) stays resident once a load grew it.
      resourceLimits: { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    const prepared = { from: this.options.now() };
    const slot: Slot = { worker, ready: false, dead: false, startedAt: 0, hosted: new Map(), prepared };
    worker.on('message', (message: Answer) => this.answer(slot, message));
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      slot.dead = true;
      // A worker that dies mid-query (out of memory, WASM abort) answers that query and is replaced.
      slot.loading?.done(new ApiError(500, 'internal_error', 'The query engine stopped while loading tables.'));
      this.release(slot, new ApiError(400, 'query_failed', 'The query engine stopped while running this query.'));
      if (!slot.ready && ++this.startFailures >= 3) return this.fail();
      this.replace(slot);
      this.dispatch();
    });
    worker.unref();
    return slot;
  }

  private answer(slot: Slot, message: Answer) {
    if ('ready' in message) {
      slot.ready = true;
      if (slot.prepared) slot.prepared.until = this.options.now();
      this.startFailures = 0;
      const since = this.unavailableSince;
      if (since !== undefined) {
        this.unavailableSince = undefined;
        const now = this.options.now();
        // Time without a ready worker is not charged: from when the query was queued, or the workers went.
        for (const jobs of this.queues.values())
          for (const job of jobs) {
            job.deadline += now - Math.max(since, job.deadline - this.options.timeoutMs);
            this.armQueueTimer(job);
          }
      }
    } else if ('loaded' in message) {
      if (slot.loading?.id === message.id) slot.loading.done();
    } else if (slot.job && slot.job.id === message.id) {
      const job = slot.job;
      if ('started' in message) {
        // Up to date: the budget runs from here, extended by the time since it was handed to this worker.
        const now = this.options.now();
        job.deadline += now - slot.startedAt;
        slot.phase = 'running';
        if (slot.prepared) slot.prepared.until = now;
        slot.startedAt = now;
        if (slot.timer) clearTimeout(slot.timer);
        slot.timer = setTimeout(() => this.expire(slot), Math.max(0, job.deadline - now));
        return;
      }
      if ('stale' in message) {
        // The worker could not follow the changes (or lost the database): load afresh and run it again.
        slot.hosted.delete(job.workspace);
        this.detach(slot);
        if (job.reloads++ < MAX_RELOADS) this.enqueue(job, true);
        else this.settle(job, new ApiError(500, 'internal_error', 'The query tables could not be brought up to date.'));
      } else {
        this.detach(slot);
        if (message.ok) this.settle(job, undefined, message.rows);
        else
          this.settle(
            job,
            new ApiError(message.reason === 'internal_error' ? 500 : 400, message.reason, message.message),
          );
      }
      if ('memory' in message && message.memory && this.overgrown(message.memory)) this.retire(slot);
    }
    this.dispatch();
  }

  /**
   * A worker holding much more than its databases need: a query grew its WASM heap (a huge value, sort or group),
   * and that memory is never given back. (The databases' pages live in it too, in their page caches: they are
   * what the worker needs in any case, not counted.)
   */
  private overgrown(memory: WorkerMemory): boolean {
    return memory.wasmBytes + memory.jsBytes - memory.cacheBytes > this.options.maxWorkerMemoryBytes;
  }

  /**
   * Ends a worker and starts another in its place; the workspaces it held are loaded afresh on their next query.
   * Its job, if any, is the caller's to answer.
   */
  private retire(slot: Slot): void {
    slot.dead = true;
    const index = this.slots.indexOf(slot);
    if (index !== -1) this.slots.splice(index, 1);
    void slot.worker.terminate();
    if (!this.closed) this.slots.push(this.spawn());
    this.noteAvailability();
  }

  private fail(): void {
    this.closed = true;
    for (const jobs of this.queues.values())
      for (const job of jobs)
        this.settle(job, new ApiError(500, 'internal_error', 'The query engine failed to start.'));
    this.queues.clear();
  }

  private replace(slot: Slot): void {
    if (this.closed) return;
    const index = this.slots.indexOf(slot);
    if (index !== -1) this.slots[index] = this.spawn();
    this.noteAvailability();
  }

  private noteAvailability(): void {
    if (this.unavailableSince !== undefined || this.slots.some((s) => s.ready && !s.dead)) return;
    this.unavailableSince = this.options.now();
    for (const jobs of this.queues.values())
      for (const job of jobs) {
        if (job.queueTimer) clearTimeout(job.queueTimer);
        job.queueTimer = undefined;
      }
  }

  private hasWork(): boolean {
    return this.queues.size > 0 || this.slots.some((slot) => slot.job);
  }

  /** Idle workers must not keep the process alive; workers with queries waiting must. */
  private updateRefs(): void {
    const busy = this.hasWork();
    for (const slot of this.slots) {
      if (busy) slot.worker.ref();
      else slot.worker.unref();
    }
  }

  /** A workspace whose query ran over budget lately: it runs only on a worker holding no other workspace's data. */
  private isSuspect(workspace: string): boolean {
    const until = this.suspects.get(workspace);
    if (until === undefined) return false;
    if (until > this.options.now()) return true;
    this.suspects.delete(workspace);
    return false;
  }

  /**
   * The worker for a workspace's next query: the one holding its database; while that one is busy, the workspace
   * waits as long as loading its database elsewhere would take (a small one moves at once, a large one waits for
   * its worker, at most one query budget), then moves (one copy per workspace: the old one is dropped). Without a
   * database: the emptiest free worker (for a suspect, one holding no other workspace's data when there is one).
   */
  private slotFor(workspace: string, free: Slot[]): Slot | undefined {
    const suspect = this.isSuspect(workspace);
    const own = free.find((slot) => slot.hosted.has(workspace));
    if (own && (!suspect || own.hosted.size === 1)) return own;
    if (!own) {
      const busy = this.slots.find((slot) => !slot.dead && slot.job && slot.hosted.has(workspace));
      // Its own database being loaded or caught up ends in time bounded by its data: moving would only load it
      // again. Another workspace's query or load: see moveFrom.
      if (busy?.phase === 'preparing' && busy.job?.workspace === workspace) return undefined;
      if (busy && !this.moveFrom(busy, workspace)) return undefined;
    }
    // A suspect prefers a worker holding nobody else's data (the one its last runaway emptied, usually), and
    // otherwise takes the emptiest: kept apart where possible, never starved.
    const apart = suspect ? free.filter((slot) => [...slot.hosted.keys()].every((hosted) => hosted === workspace)) : [];
    const candidates = apart.length > 0 ? apart : free;
    return candidates.reduce((best, slot) => (this.hostedRows(slot) < this.hostedRows(best) ? slot : best));
  }

  /**
   * Whether a workspace moves off its busy worker now, its database loaded afresh on a free one. Behind another
   * workspace's load of a known size it moves only when loading its own would end first: otherwise the move costs
   * a worker as long as the wait, and the workspace it then keeps waiting moves in turn, every large workspace
   * loaded again and again. Behind a query (ended within its budget) or a load whose size is not known yet, it
   * waits as long as loading its own would take, 100 ms at least (a query: one budget at most).
   */
  private moveFrom(busy: Slot, workspace: string): boolean {
    const load = (rows: number) => rows * LOAD_MS_PER_ROW;
    const own = load(busy.hosted.get(workspace)?.rows ?? 0);
    const elapsed = this.options.now() - busy.startedAt;
    if (busy.phase === 'preparing' && busy.preparingRows !== undefined) return own < load(busy.preparingRows) - elapsed;
    const wait = Math.max(AFFINITY_WAIT_MS, busy.phase === 'running' ? Math.min(this.options.timeoutMs, own) : own);
    if (elapsed >= wait) return true;
    this.dispatchAt(busy.startedAt + wait);
    return false;
  }

  /** Dispatches again at `at` (one timer, the earliest asked for). */
  private dispatchAt(at: number): void {
    if (this.dispatchTimer && this.dispatchTimerAt <= at) return;
    if (this.dispatchTimer) clearTimeout(this.dispatchTimer);
    this.dispatchTimerAt = at;
    this.dispatchTimer = setTimeout(
      () => {
        this.dispatchTimer = undefined;
        this.dispatch();
      },
      Math.max(0, at - this.options.now()),
    );
    this.dispatchTimer.unref();
  }

  private dispatch(): void {
    this.updateRefs();
    let started = true;
    while (started) {
      started = false;
      const free = this.slots.filter((slot) => slot.ready && !slot.dead && !slot.job);
      if (free.length === 0) return;
      // Round-robin: the first workspace in queue order that may run another query and has a worker for it.
      for (const [workspace, queue] of this.queues) {
        if ((this.running.get(workspace) ?? 0) >= this.options.perWorkspace) continue;
        const slot = this.slotFor(workspace, free);
        if (!slot) continue;
        const job = queue.shift();
        if (!job) continue;
        // Before this worker starts preparing for it: the time it waited for earlier preparations is not charged.
        this.account(job);
        // Served: to the back of the round, if it has more waiting.
        this.queues.delete(workspace);
        if (queue.length > 0) this.queues.set(workspace, queue);
        slot.job = job;
        if (job.queueTimer) clearTimeout(job.queueTimer);
        job.queueTimer = undefined;
        slot.phase = 'preparing';
        slot.preparingRows = undefined;
        slot.startedAt = this.options.now();
        slot.prepared = { from: slot.startedAt };
        this.running.set(workspace, (this.running.get(workspace) ?? 0) + 1);
        if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
        void this.start(slot, job);
        started = true;
        break;
      }
    }
  }

  private hostedRows(slot: Slot): number {
    let rows = 0;
    for (const hosted of slot.hosted.values()) rows += hosted.rows;
    return rows;
  }

  private async start(slot: Slot, job: Job): Promise<void> {
    const { source, now } = this.options;
    const current = () => slot.job === job && !slot.dead;
    if (now() >= job.deadline) return this.finish(slot, job, this.timeoutError(true));
    try {
      // What is read here is what this job brings the database to: nothing of it is pending any more.
      this.pending.delete(job.workspace);
      const versions = await source.versions(job.workspace);
      if (!current()) return;
      const version = versions.at(-1) ?? '';
      const kept = slot.hosted.get(job.workspace);
      let ops = this.catchUp(kept, version, versions);
      if (ops === undefined || !kept) {
        const snapshot = await source.snapshot(job.workspace);
        if (!current()) return;
        const rows =
          Object.values(snapshot.tables).reduce((n, t) => n + t.length, 0) +
          snapshot.created.runs.length * createdRowTables.length;
        this.notePreparing(slot, rows);
        this.makeRoom(slot, job.workspace, rows);
        await this.loadInto(slot, job, snapshot, current);
        if (!current()) return;
        slot.hosted.set(job.workspace, { version: snapshot.version, rows, usedAt: now() });
        this.dropApplied(job.workspace, versions);
        // One database per workspace: a copy left elsewhere would only fall behind and cost memory.
        for (const other of this.slots) {
          if (other === slot || !other.hosted.delete(job.workspace)) continue;
          other.worker.postMessage({ type: 'drop', workspace: job.workspace });
        }
        ops = [];
      } else {
        this.notePreparing(slot, rowsIn(ops));
        // The versions just applied: those after the database's (found from the end, where it usually is).
        if (ops.length > 0) this.dropApplied(job.workspace, versions.slice(versions.lastIndexOf(kept.version) + 1));
        kept.version = version;
        kept.rows += rowsIn(ops);
        kept.usedAt = now();
      }
      // The worker applies the changes and refreshes statuses first, then reports `started`. Reading the versions,
      // loading and catching up are the mock's own work: the budget's timer starts there, the query's deadline
      // moved by all of it. Until then only a guard against a stuck worker runs.
      slot.timer = setTimeout(() => this.expire(slot), PREPARE_GUARD_MS);
      const { params, maxRows, maxResultBytes, jsonArray } = job;
      const { maxQueryMemoryBytes } = this.options;
      slot.worker.postMessage({
        type: 'query',
        id: job.id,
        workspace: job.workspace,
        ops,
        sql: job.sql,
        params,
        now: now(),
        maxRows,
        maxResultBytes,
        maxQueryMemoryBytes,
        jsonArray,
      });
    } catch (error) {
      if (!current()) return;
      slot.hosted.delete(job.workspace);
      this.finish(
        slot,
        job,
        error instanceof ApiError ? error : new ApiError(500, 'internal_error', 'The query tables could not be read.'),
      );
    }
  }

  /**
   * Forgets the workspace's buffered changes among `versions` (all at or before the version its database was just
   * brought to): the one database of a workspace has them, so they would only hold memory until the buffer's
   * bounds pushed them out (a copy of the workspace on another worker, rare and short-lived, then loads afresh).
   */
  private dropApplied(workspace: string, versions: string[]): void {
    for (const version of versions) {
      const change = this.changes.get(version);
      if (change?.workspace !== workspace) continue;
      this.changes.delete(version);
      this.changeBytes -= change.bytes;
    }
  }

  /** The size of what a worker prepares is known: workspaces waiting for it may now decide to move (moveFrom). */
  private notePreparing(slot: Slot, rows: number): void {
    slot.preparingRows = rows;
    if (this.queues.size > 0) this.dispatchAt(this.options.now());
  }

  /** The changes that take a database from its version to `version`, or undefined when it must be loaded afresh. */
  private catchUp(hosted: Hosted | undefined, version: string, versions: string[]): QueryOp[] | undefined {
    if (!hosted) return undefined;
    if (hosted.version === version) return [];
    const from = versions.lastIndexOf(hosted.version);
    if (from === -1) return undefined;
    const ops: QueryOp[] = [];
    for (const next of versions.slice(from + 1)) {
      const change = this.changes.get(next);
      if (!change) return undefined;
      // Computed when needed (and again for a second worker): the buffer keeps the writes, not their rows.
      const computed = change.ops();
      if (computed === null) return undefined;
      for (const op of computed) ops.push(op);
    }
    return ops;
  }

  /** Drops the least recently used other databases of this worker until `rows` more fit. */
  private makeRoom(slot: Slot, workspace: string, rows: number) {
    slot.hosted.delete(workspace);
    while (slot.hosted.size > 0 && this.hostedRows(slot) + rows > this.options.cacheRows) {
      let oldest: [string, Hosted] | undefined;
      for (const entry of slot.hosted) if (!oldest || entry[1].usedAt < oldest[1].usedAt) oldest = entry;
      if (!oldest) break;
      slot.hosted.delete(oldest[0]);
      slot.worker.postMessage({ type: 'drop', workspace: oldest[0] });
    }
  }

  /**
   * Sends a snapshot in chunks, yielding to the event loop between them: converting and cloning a large
   * workspace's rows never holds up the other requests for long.
   */
  private async loadInto(slot: Slot, job: Job, snapshot: QuerySnapshot, current: () => boolean): Promise<void> {
    const { workspace } = job;
    const answered = new Promise<void>((resolve, reject) => {
      slot.loading = {
        id: job.id,
        done: (error) => {
          slot.loading = undefined;
          if (error) reject(error);
          else resolve();
        },
      };
    });
    answered.catch(() => undefined);
    try {
      slot.worker.postMessage({ type: 'load-begin', workspace });
      for (const table of queryTableNames) {
        const source = snapshot.tables[table] ?? [];
        for (let start = 0; start < source.length; start += LOAD_CHUNK_ROWS) {
          const rows = source.slice(start, start + LOAD_CHUNK_ROWS);
          if (!current()) return;
          slot.worker.postMessage({ type: 'load-rows', workspace, table, rows });
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      if (!current()) return;
      slot.worker.postMessage({
        type: 'load-end',
        id: job.id,
        now: this.options.now(),
        workspace,
        created: snapshot.created,
      });
    } catch {
      slot.loading?.done(new ApiError(500, 'internal_error', 'The run data could not be handed to the query engine.'));
    }
    return answered;
  }

  private timeoutError(queued: boolean) {
    // 400: the contract names no timeout status; a query over budget is a request the client must change.
    return new ApiError(
      400,
      'query_timeout',
      queued
        ? `The query waited behind others past its ${this.options.timeoutMs} ms budget and was not run.`
        : `The query ran longer than ${this.options.timeoutMs} ms and was stopped.`,
    );
  }

  private expire(slot: Slot): void {
    const job = slot.job;
    if (!job) return;
    // The only way to stop SQLite inside WASM: the worker goes, with the databases it held. Its workspace then
    // runs apart for a while, so its next runaway query cannot take other workspaces' databases down with it.
    const ranOver = slot.phase === 'running';
    if (ranOver) {
      this.suspects.set(job.workspace, this.options.now() + SUSPECT_MS);
      if (this.suspects.size > MAX_SUSPECTS) this.suspects.dropOldest();
    }
    this.retire(slot);
    this.finish(
      slot,
      job,
      ranOver
        ? this.timeoutError(false)
        : new ApiError(
            500,
            'internal_error',
            'The query engine stopped answering while bringing the tables up to date.',
          ),
    );
  }

  private finish(slot: Slot, job: Job, error: ApiError) {
    if (slot.job === job) this.detach(slot);
    this.settle(job, error);
    this.dispatch();
  }

  private release(slot: Slot, error: ApiError) {
    const job = slot.job;
    if (!job) return;
    this.detach(slot);
    this.settle(job, error);
  }

  private detach(slot: Slot) {
    const job = slot.job;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    if (slot.phase === 'preparing' && slot.prepared) slot.prepared.until = this.options.now();
    slot.job = undefined;
    slot.phase = undefined;
    slot.preparingRows = undefined;
    if (!job) return;
    const running = (this.running.get(job.workspace) ?? 1) - 1;
    if (running > 0) this.running.set(job.workspace, running);
    else this.running.delete(job.workspace);
  }

  private settle(job: Job, error: ApiError | undefined, rows?: object[]) {
    if (job.queueTimer) clearTimeout(job.queueTimer);
    job.queueTimer = undefined;
    if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
    if (error) job.reject(error);
    else job.resolve(rows ?? []);
  }
}
