import { randomUUID } from 'node:crypto';
import { createByteBudget } from '../byte-budget';
import { DOWNLOAD_PREFIX, downloadKey } from '../keys';
import type { StoragePort } from '../port';
import type { PendingCommit } from '../pending-commit';
import type { RunView } from '../runs';
import type { StoreLimits } from '../types';

export type Download = { workspaceUuid: string; runs: RunView[]; createdAtMs: number };
/** An export whose runs are a JSON array text already (serialised by the SQL worker). */
export type DownloadText = { workspaceUuid: string; createdAtMs: number; runsJson: string };

/**
 * An export's kept text: its owner and time first, its runs last, so the answer (`{"runs":[…]}`) is a slice of
 * it found from its head; the runs' JSON is written once, by whoever serialised them, and never parsed again.
 */
const RUNS_FIELD = ',"runs":';
const textOf = (download: Download | DownloadText) =>
  JSON.stringify({ workspaceUuid: download.workspaceUuid, createdAtMs: download.createdAtMs }).slice(0, -1) +
  RUNS_FIELD +
  ('runsJson' in download ? download.runsJson : JSON.stringify(download.runs)) +
  '}';

/** The claim index of downloads: at most `limits.downloads` live at once, the oldest released first. */
const INDEX = 'downloads';

/** Run exports: kept for `downloadTtlMs`, at most `downloads` of them and `downloadBytes` in all (oldest out first). */
export function createDownloadRepository(port: StoragePort, limits: StoreLimits) {
  // Byte bound beside the port's count and age bounds: the oldest go once the budget is spent.
  const budget = createByteBudget(limits.downloadBytes, limits.downloads);
  /** Keeps an export; resolves its id. */
  async function saveDownload(download: Download | DownloadText, id: string = randomUUID()): Promise<string> {
    const text = textOf(download);
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
  }

  return {
    /** Keeps an export (under `id`, a new one unless given); resolves its id. */
    saveDownload,

    /**
     * An export saved when made, kept with the key's answer: the answer's commit holds only while the export is
     * stored, and one let go meanwhile (the bounds, a reset) is saved again under its id before the commit is
     * tried once more. Should the key be another request's by then, the request takes it back as any failed
     * request does.
     */
    keepStoredDownload(id: string, download: Download | DownloadText, withAnswer: PendingCommit): void {
      const at = downloadKey(id);
      withAnswer.add({
        take: () => ({ writes: [], guards: [{ key: at, is: 'present' }] }),
        alone: async () => true,
        ready: async () => {
          const [text] = await port.read([{ op: 'get', key: at }]);
          if (text === null) await saveDownload(download, id);
        },
      });
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

    /**
     * An export's owner and its answer's text (`{"runs":[…]}`), read without parsing its runs: the cost on this
     * thread does not grow with the export.
     */
    async downloadAnswer(id: string): Promise<{ workspaceUuid: string; text: string } | undefined> {
      const [text] = await port.read([{ op: 'get', key: downloadKey(id) }]);
      if (text === null) return undefined;
      const at = text.indexOf(RUNS_FIELD);
      const head = at < 0 ? undefined : (JSON.parse(text.slice(0, at) + '}') as { workspaceUuid?: unknown });
      if (typeof head?.workspaceUuid === 'string')
        return { workspaceUuid: head.workspaceUuid, text: '{"runs":' + text.slice(at + RUNS_FIELD.length) };
      // A text kept in another layout: read whole.
      const download = JSON.parse(text) as Download;
      return { workspaceUuid: download.workspaceUuid, text: JSON.stringify({ runs: download.runs }) };
    },

    /** Forgets every download (a reset of the whole mock). */
    async clearDownloads(): Promise<void> {
      await port.deleteByPrefix(DOWNLOAD_PREFIX);
    },
  };
}
