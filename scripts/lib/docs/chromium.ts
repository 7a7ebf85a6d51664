// Headless Chromium for tests: a throwaway profile, background services off, and every non-loopback request sent
// to a dead proxy, so a page that tries the network fails visibly instead of reaching out.

import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type ChromiumLookup = { bin?: string; reason?: string };

/** Find Chromium via scripts/ensure-chromium.sh (which installs Debian's package where it may). */
export function findChromium(root: string): ChromiumLookup {
  try {
    const bin = execFileSync(join(root, 'scripts', 'ensure-chromium.sh'), {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 600_000,
    }).trim();
    return bin ? { bin } : { reason: 'ensure-chromium.sh printed no path' };
  } catch (error) {
    const stderr = (error as { stderr?: Buffer | string }).stderr;
    return { reason: String(stderr ?? (error as Error).message).trim() };
  }
}

export type DumpResult = { dom: string; requestedUrls: string[]; consoleErrors: string[] };

/** Chromium's own background traffic (updates, sign-in, clock): not the page's doing, and blocked all the same. */
const BROWSER_HOSTS = /^https?:\/\/([a-z0-9-]+\.)*(google\.com|googleapis\.com|gvt1\.com|gstatic\.com)(:\d+)?\//i;

/** `allowLoopback`: requests to 127.0.0.1/localhost reach the machine (a page calling a local server); the rest still fail. */
export function dumpDom(
  bin: string,
  url: string,
  timeoutMs = 90_000,
  options: { allowLoopback?: boolean } = {},
): Promise<DumpResult> {
  const dir = mkdtempSync(join(tmpdir(), 'chromium-'));
  const netLog = join(dir, 'net-log.json');
  const args = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-dev-shm-usage',
    '--disable-extensions',
    `--user-data-dir=${join(dir, 'profile')}`,
    '--proxy-server=127.0.0.1:9',
    options.allowLoopback ? '--proxy-bypass-list=127.0.0.1;localhost;[::1]' : '--proxy-bypass-list=<-loopback>',
    `--log-net-log=${netLog}`,
    '--enable-logging=stderr',
    '--v=0',
    '--virtual-time-budget=10000',
    '--dump-dom',
    url,
  ];
  return new Promise((resolvePromise, reject) => {
    execFile(
      bin,
      args,
      { maxBuffer: 256 * 1024 * 1024, timeout: timeoutMs, env: { ...process.env, HOME: dir } },
      (error, stdout, stderr) => {
        try {
          if (error && !stdout) throw new Error(`chromium failed: ${error.message}\n${stderr.slice(-2000)}`);
          let log = '';
          try {
            log = readFileSync(netLog, 'utf8');
          } catch {
            // No net log: nothing was requested.
          }
          const requestedUrls = [...new Set([...log.matchAll(/"url":"([^"]+)"/g)].map((m) => m[1]))].filter(
            (u) => !BROWSER_HOSTS.test(u),
          );
          const consoleErrors = stderr
            .split('\n')
            .filter((line) => /CONSOLE|Uncaught/.test(line) && /error|Uncaught/i.test(line));
          resolvePromise({ dom: stdout, requestedUrls, consoleErrors });
        } catch (e) {
          reject(e);
        } finally {
          // Chromium's helpers may still be writing the profile: best effort, never an error thrown from here.
          try {
            rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
          } catch {
            // left to the system's temporary-folder cleanup
          }
        }
      },
    );
  });
}

/** Requests that left the machine: anything but file:, data:, blob:, about: and loopback. */
export function remoteRequests(urls: string[]): string[] {
  return urls.filter(
    (u) =>
      !/^(file|data|blob|about|chrome|devtools):/i.test(u) &&
      !/^[a-z]+:\/\/(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?(\/|$)/i.test(u),
  );
}
