/**
 * Opens a page in headless Chromium and reads it once it has settled, over the DevTools protocol on a pipe
 * (`--remote-debugging-pipe`: no port, no WebSocket library). A service worker starts and answers on real time,
 * which `--dump-dom` with a virtual time budget does not wait for.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

type Message = { id?: number; result?: Record<string, unknown>; error?: { message: string }; sessionId?: string };

class Cdp {
  private nextId = 0;
  private buffer = '';
  private readonly pending = new Map<number, { resolve(m: Message): void; reject(e: Error): void }>();
  constructor(
    private readonly input: Writable,
    output: Readable,
  ) {
    output.setEncoding('utf8');
    output.on('data', (chunk: string) => {
      this.buffer += chunk;
      for (let end = this.buffer.indexOf('\0'); end >= 0; end = this.buffer.indexOf('\0')) {
        const message = JSON.parse(this.buffer.slice(0, end)) as Message;
        this.buffer = this.buffer.slice(end + 1);
        if (message.id === undefined) continue;
        const waiting = this.pending.get(message.id);
        if (!waiting) continue;
        this.pending.delete(message.id);
        if (message.error) waiting.reject(new Error(message.error.message));
        else waiting.resolve(message);
      }
    });
  }
  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Message> {
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.input.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  }
}

export type PageReading = { texts: Record<string, string>; ms: number };

/**
 * Loads `url`, waits until `until` (a JavaScript expression) is true in the page, or `timeoutMs`, and returns
 * the text of each element id asked for, with the time it took from navigation.
 */
export async function readPage(
  bin: string,
  url: string,
  ids: string[],
  until: string,
  timeoutMs = 60_000,
): Promise<PageReading> {
  const dir = mkdtempSync(join(tmpdir(), 'chromium-cdp-'));
  const chromium: ChildProcess = spawn(
    bin,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      '--disable-extensions',
      // Only loopback is reachable: any other request (the API's made-up host) would fail, never leave.
      '--proxy-server=127.0.0.1:9',
      '--proxy-bypass-list=127.0.0.1;localhost;[::1]',
      `--user-data-dir=${join(dir, 'profile')}`,
      '--remote-debugging-pipe',
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'], env: { ...process.env, HOME: dir } },
  );
  try {
    const cdp = new Cdp(chromium.stdio[3] as Writable, chromium.stdio[4] as Readable);
    const started = Date.now();
    const target = await cdp.send('Target.createTarget', { url });
    const attached = await cdp.send('Target.attachToTarget', { targetId: target.result?.targetId, flatten: true });
    const session = attached.result?.sessionId;
    if (typeof session !== 'string') throw new Error('Chromium attached no session to the page');
    const evaluate = async (expression: string) =>
      (
        (await cdp.send('Runtime.evaluate', { expression, returnByValue: true }, session)).result as {
          result: { value?: unknown };
        }
      ).result.value;
    while (Date.now() - started < timeoutMs) {
      if ((await evaluate(`Boolean(${until})`)) === true) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const ms = Date.now() - started;
    const texts = (await evaluate(
      `Object.fromEntries(${JSON.stringify(ids)}.map((id) => [id, document.getElementById(id)?.textContent ?? '']))`,
    )) as Record<string, string>;
    await cdp.send('Browser.close').catch(() => undefined);
    return { texts, ms };
  } finally {
    if (chromium.exitCode === null && chromium.signalCode === null) {
      const exited = new Promise((resolve) => chromium.once('exit', resolve));
      chromium.kill('SIGKILL');
      await exited;
    }
    // Its helper processes may still be writing the profile for a moment: removing it is best effort, and a
    // temporary folder left behind is no failure of the page.
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    } catch {
      // left to the system's temporary-folder cleanup
    }
  }
}
