import { randomUUID } from 'node:crypto';
import { createByteBudget } from '../byte-budget';
import { DOWNLOAD_PREFIX, downloadKey } from '../keys';
import type { StoragePort } from '../port';
import type { RunView } from '../runs';
import type { StoreLimits } from '../types';

export type Download = { workspaceUuid: string; runs: RunView[]; createdAtMs: number };

/** The claim index of downloads: at most `limits.downloads` live at once, the oldest released first. */
const INDEX = 'downloads';

/** Run exports: kept for `downloadTtlMs`, at most `downloads` of them and `downloadBytes` in all (oldest out first). */
export function createDownloadRepository(port: StoragePort, limits: StoreLimits) {
  // Byte bound beside the port's count and age bounds: the oldest go once the budget is spent.
  const budget = createByteBudget(limits.downloadBytes);
  return {
    /** Keeps an export; resolves its id. */
    async saveDownload(download: Download): Promise<string> {
      const id = randomUUID();
      const text = JSON.stringify(download);
      // The oldest exports beyond the byte budget go first, so nothing can fail once this one is stored.
      const reservation = budget.reserve(INDEX, id, text.length);
      const releases = reservation.released.filter((released) => released !== id);
      let released = releases.length === 0;
      try {
        if (!released)
          released = await port.commit(releases.map((old) => ({ op: 'delete', key: downloadKey(old), index: INDEX })));
        if (!reservation.released.includes(id))
          await port.claim(downloadKey(id), text, limits.downloadTtlMs, { key: INDEX, cap: limits.downloads });
      } catch (error) {
        // Exports released already stay released (they were due to go); the ledger forgets only this one.
        if (released) budget.remove(INDEX, id);
        else reservation.cancel();
        throw error;
      }
      return id;
    },

    /** Takes back an export this request saved (its request failed after the write). */
    async removeDownload(id: string): Promise<void> {
      budget.remove(INDEX, id);
      await port.commit([{ op: 'delete', key: downloadKey(id), index: INDEX }]);
    },

    /** Bytes of downloads this process keeps (tests, the soak report). */
    downloadBytes: () => budget.bytes(INDEX),

    async getDownload(id: string): Promise<Download | undefined> {
      const [text] = await port.read([{ op: 'get', key: downloadKey(id) }]);
      return text === null ? undefined : (JSON.parse(text) as Download);
    },

    /** Forgets every download (a reset of the whole mock). */
    async clearDownloads(): Promise<void> {
      await port.deleteByPrefix(DOWNLOAD_PREFIX);
    },
  };
}
