import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ApiError } from '../errors';
import { queryTableSchema, type QueryTables } from './tables';

export type QueryJob = { sql: string; tables: QueryTables; maxRows: number; maxResultBytes: number };
type WorkerAnswer =
  { id: number; ok: true; rows: object[] } | { id: number; ok: false; reason: string; message: string };
type PendingJob = QueryJob & { id: number; resolve(rows: object[]): void; reject(error: ApiError): void };
type Slot = { worker: Worker; ready: boolean; job?: PendingJob; timer?: NodeJS.Timeout };

const workerFile = path.join(__dirname, 'sql-worker.js');

/**
 * A few sql.js workers fed from one queue. A query that outlives its budget cannot be interrupted inside WASM,
 * so its worker is terminated and replaced; the mock's own event loop never runs SQL.
 */
export class QueryWorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: PendingJob[] = [];
  private nextId = 1;
  private closed = false;
  /** Workers that died before loading SQLite; a few in a row means the engine cannot start at all. */
  private startFailures = 0;

  constructor(
    size: number,
    private readonly timeoutMs: number,
  ) {
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  run(job: QueryJob): Promise<object[]> {
    if (this.closed) return Promise.reject(new ApiError(500, 'internal_error', 'The query engine is closed.'));
    return new Promise((resolve, reject) => {
      this.queue.push({ ...job, id: this.nextId++, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0))
      job.reject(new ApiError(500, 'internal_error', 'The query engine is closed.'));
    await Promise.all(
      this.slots.map((slot) => {
        this.settle(slot, new ApiError(500, 'internal_error', 'The query engine is closed.'));
        return slot.worker.terminate();
      }),
    );
  }

  private spawn(): Slot {
    // The query's rows live in WASM memory; the JS heap only holds one result, so a modest cap is ample.
    const worker = new Worker(workerFile, {
      workerData: { schema: queryTableSchema },
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    const slot: Slot = { worker, ready: false };
    worker.on('message', (message: WorkerAnswer | { ready: true }) => {
      if ('ready' in message) {
        slot.ready = true;
        this.startFailures = 0;
      } else if (slot.job && slot.job.id === message.id) {
        const job = slot.job;
        this.clear(slot);
        if (message.ok) job.resolve(message.rows);
        else job.reject(new ApiError(400, message.reason, message.message));
      }
      this.dispatch();
    });
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      // A worker that dies mid-query (out of memory, WASM abort) answers that query and is replaced.
      this.settle(slot, new ApiError(400, 'query_failed', 'The query engine stopped while running this query.'));
      if (!slot.ready && ++this.startFailures >= 3) return this.fail();
      this.replace(slot);
    });
    if (!this.hasWork()) worker.unref();
    return slot;
  }

  private fail(): void {
    this.closed = true;
    for (const job of this.queue.splice(0))
      job.reject(new ApiError(500, 'internal_error', 'The query engine failed to start.'));
  }

  private replace(slot: Slot): void {
    if (this.closed) return;
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    this.slots[index] = this.spawn();
  }

  private hasWork(): boolean {
    return this.queue.length > 0 || this.slots.some((slot) => slot.job);
  }

  /** Idle workers must not keep the process alive; workers with queries waiting must. */
  private updateRefs(): void {
    const busy = this.hasWork();
    for (const slot of this.slots) {
      if (busy) slot.worker.ref();
      else slot.worker.unref();
    }
  }

  private dispatch(): void {
    this.updateRefs();
    for (const slot of this.slots) {
      if (!slot.ready || slot.job || this.queue.length === 0) continue;
      const job = this.queue.shift()!;
      slot.job = job;
      slot.timer = setTimeout(() => this.expire(slot), this.timeoutMs);
      const { resolve: _resolve, reject: _reject, ...message } = job;
      try {
        slot.worker.postMessage(message);
      } catch {
        // Rows the store handed over that cannot be cloned (functions, symbols): a fault of the mock, not the query.
        this.settle(slot, new ApiError(500, 'internal_error', 'The run data could not be handed to the query engine.'));
      }
    }
  }

  private expire(slot: Slot): void {
    // 400: the contract names no timeout status; a query over budget is a request the client must change.
    this.settle(
      slot,
      new ApiError(400, 'query_timeout', `The query ran longer than ${this.timeoutMs} ms and was stopped.`),
    );
    const index = this.slots.indexOf(slot);
    if (index !== -1) this.slots.splice(index, 1);
    void slot.worker.terminate();
    if (!this.closed) this.slots.push(this.spawn());
  }

  private settle(slot: Slot, error: ApiError): void {
    const job = slot.job;
    this.clear(slot);
    job?.reject(error);
  }

  private clear(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.job = undefined;
    slot.timer = undefined;
  }
}
