/**
 * The browser example built once (`vite build`, in a child process: Vite is an ES module) and served from the
 * built files on a loopback port, as a static host would; used by `browser.test.ts` and `measure.ts`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

const ROOT = join(__dirname, '..', '..');
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
};

export type BuiltApp = { dir: string; url: string; close(): Promise<void> };

/** `vite build` of `browser/` into a fresh folder. */
export function buildApp(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'msw-app-'));
  const vite = join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const config = join(__dirname, 'browser', 'vite.config.ts');
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      [vite, 'build', '--config', config, '--outDir', dir],
      { cwd: ROOT, timeout: 180_000 },
      (error, _stdout, stderr) => (error ? reject(new Error(`vite build failed: ${stderr}`)) : resolve(dir)),
    ),
  );
}

/** Serves the built files (nothing outside `dir`) on 127.0.0.1, a free port. */
export async function serveApp(dir: string): Promise<BuiltApp> {
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const file = normalize(join(dir, path === '/' ? 'index.html' : path));
    if (!file.startsWith(dir + sep)) return void res.writeHead(404).end();
    try {
      const body = readFileSync(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    dir,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The built JavaScript's bytes and gzipped bytes (the WASM apart: it is its own file, fetched on first query). */
export function bundleSizes(dir: string): { js: number; jsGzip: number; wasm: number } {
  const assets = join(dir, 'assets');
  let js = 0;
  let jsGzip = 0;
  let wasm = 0;
  for (const name of readdirSync(assets)) {
    const file = join(assets, name);
    if (name.endsWith('.js')) {
      const bytes = readFileSync(file);
      js += bytes.length;
      jsGzip += gzipSync(bytes, { level: 9 }).length;
    } else if (name.endsWith('.wasm')) wasm += statSync(file).size;
  }
  return { js, jsGzip, wasm };
}

export function removeApp(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
