import { createByteBudget } from '../byte-budget';
import { DOWNLOAD_INDEX_PREFIX, DOWNLOAD_PREFIX, downloadKey, perWorkspace } from '../keys';
import type { ClaimIndex, StoragePort } from '../port';
import type { PendingCommit } from '../pending-commit';
import type { RunView } from '../runs';
import type { StoreLimits } from '../types';
import { randomUuid } from '../../web/bytes';

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

/** A workspace's claim index of downloads: at most `limits.downloadsPerWorkspace` live, the oldest released first. */
/** Ends with a colon: its own family, and a prefix no other workspace's index begins with (`team` and `team-2`). */
const indexOf = (workspaceUuid: string) => `${DOWNLOAD_INDEX_PREFIX}${workspaceUuid}:`;

/**
 * Run exports, each workspace's apart: kept for `downloadTtlMs`, at most `downloadsPerWorkspace` of them and
 * `downloadBytesPerWorkspace` per workspace (its oldest out first), stored under the workspace's own keys. One
 * tenant's exports never release another's, a download is found only under its owner's credential, and a reset
 * of a workspace takes its downloads with it.
 */
export function createDownloadRepository(port: StoragePort, limits: StoreLimits) {
  // Byte bound beside the port's count and age bounds: the workspace's oldest go once its budget is spent.
  const budget = createByteBudget(limits.downloadBytesPerWorkspace, limits.downloadsPerWorkspace);
  const indexFor = perWorkspace((workspaceUuid): ClaimIndex => ({
    key: indexOf(workspaceUuid),
    cap: limits.downloadsPerWorkspace,
  }));
  /** Keeps an export; resolves its id. */
  async function saveDownload(download: Download | DownloadText, id: string = randomUuid()): Promise<string> {
    const { workspaceUuid } = download;
    const text = textOf(download);
    const index = indexFor(workspaceUuid);
    // The oldest exports beyond the byte budget go first, so nothing can fail once this one is stored.
    const reservation = budget.reserve(workspaceUuid, id, text.length);
    const releases = reservation.released.filter((released) => released !== id);
    let released = releases.length === 0;
    try {
      if (!released)
        released = await port.commit(
          releases.map((old) => ({ op: 'delete', key: downloadKey(workspaceUuid, old), index: index.key })),
        );
      if (!reservation.released.includes(id))
        await port.claim(downloadKey(workspaceUuid, id), text, limits.downloadTtlMs, index);
    } catch (error) {
      // Exports released already stay released (they were due to go); the ledger forgets only this one.
      if (released) budget.remove(workspaceUuid, id);
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
      const at = downloadKey(download.workspaceUuid, id);
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
    async removeDownload(workspaceUuid: string, id: string): Promise<void> {
      budget.remove(workspaceUuid, id);
      await port.commit([{ op: 'delete', key: downloadKey(workspaceUuid, id), index: indexOf(workspaceUuid) }]);
    },

    /** Bytes of a workspace's downloads this process keeps (tests, diagnostics). */
    downloadBytes: (workspaceUuid: string) => budget.bytes(workspaceUuid),

    /** A workspace's export (another workspace's is not found). */
    async getDownload(workspaceUuid: string, id: string): Promise<Download | undefined> {
      const [text] = await port.read([{ op: 'get', key: downloadKey(workspaceUuid, id) }]);
      return text === null ? undefined : (JSON.parse(text) as Download);
    },

    /**
     * A workspace's export as its answer's text (`{"runs":[…]}`), read without parsing its runs: the cost on
     * this thread does not grow with the export. Another workspace's export is not found (its keys are apart).
     */
    async downloadAnswer(
      workspaceUuid: string,
      id: string,
    ): Promise<{ workspaceUuid: string; text: string } | undefined> {
      const [text] = await port.read([{ op: 'get', key: downloadKey(workspaceUuid, id) }]);
      if (text === null) return undefined;
      const at = text.indexOf(RUNS_FIELD);
      const head = at < 0 ? undefined : (JSON.parse(text.slice(0, at) + '}') as { workspaceUuid?: unknown });
      if (typeof head?.workspaceUuid === 'string')
        return { workspaceUuid: head.workspaceUuid, text: '{"runs":' + text.slice(at + RUNS_FIELD.length) };
      // A text kept in another layout: read whole.
      const download = JSON.parse(text) as Download;
      return { workspaceUuid: download.workspaceUuid, text: JSON.stringify({ runs: download.runs }) };
    },

    /** Forgets every download, or one workspace's (a reset), with the workspace's claim index and ledger. */
    async clearDownloads(workspaceUuid?: string): Promise<void> {
      if (workspaceUuid === undefined) {
        await port.deleteByPrefix(`${DOWNLOAD_PREFIX}:`);
        await port.deleteByPrefix(DOWNLOAD_INDEX_PREFIX);
        budget.clear();
        return;
      }
      await port.deleteByPrefix(downloadKey(workspaceUuid, ''));
      await port.deleteByPrefix(indexOf(workspaceUuid));
      budget.clear(workspaceUuid);
    },
  };
}
