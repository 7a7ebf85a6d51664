/**
 * `--workers <n>`: at most n checks (or fanned-out properties) run at once. A check that fans out gives its own
 * slot back while its items run, so nesting never starves the pool; with one worker everything runs in order.
 */
export class WorkerPool {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly size: number) {}

  private async acquire(): Promise<void> {
    if (this.active < this.size) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  /** Runs items as tasks of the pool, from inside a task that holds a slot (given back meanwhile). */
  async fanOut<T>(items: T[], task: (item: T) => Promise<void>): Promise<void> {
    this.release();
    try {
      const settled = await Promise.allSettled(items.map((item) => this.run(() => task(item))));
      const rejected = settled.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      if (rejected) throw rejected.reason;
    } finally {
      await this.acquire();
    }
  }
}

/**
 * Phases of a run: consecutive checks that may share the target run concurrently; a check that needs the target
 * to itself (it reads rate-limit counters or spends the limit) is a phase of its own, in its place in the order.
 */
export function phases<T extends { runsAlone?: boolean }>(checks: T[]): T[][] {
  const out: T[][] = [];
  for (const check of checks) {
    const last = out[out.length - 1];
    if (check.runsAlone || !last || last[0].runsAlone) out.push([check]);
    else last.push(check);
  }
  return out;
}
