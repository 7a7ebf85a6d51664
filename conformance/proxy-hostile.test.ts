/**
 * The passive proxy against hostile peers, as a child process like any deployment: an upstream that resets mid-body,
 * a client that aborts mid-answer and mid-request. The proxy stays up (no unhandled rejection), records each broken
 * exchange as aborted, writes its reports periodically (--report-every) and on SIGTERM as on SIGINT.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SaxesParser } from 'saxes';
import { sendRaw } from '../mocks/testing/raw-http';

jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An upstream with one hostile answer per path: `/v1/reset` resets mid-body, `/v1/slow` streams for a while. */
async function hostileUpstream(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('error', () => undefined);
    res.on('error', () => undefined);
    if (req.url?.startsWith('/v1/reset')) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"items":[');
      setTimeout(() => res.socket?.resetAndDestroy(), 20);
      return;
    }
    if (req.url?.startsWith('/v1/slow')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      let left = 50;
      const timer = setInterval(() => (--left > 0 ? res.write('0,') : (clearInterval(timer), res.end('0]'))), 50);
      res.on('close', () => clearInterval(timer));
      return;
    }
    req.on('end', () => {
      // `/v1/echo…` says the path it was sent: the proxy forwards it as the client sent it.
      const body = req.url?.startsWith('/v1/echo') ? JSON.stringify({ url: req.url }) : '{"ok":true}';
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server };
}

/** Starts the proxy from the command line; resolves with its URL once it prints it. */
async function startProxyChild(
  upstream: string,
  args: string[],
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  // One process, as `npm run conformance` and the package's command run it: a signal reaches the proxy itself.
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'conformance/cli.ts', '--proxy', '--upstream', upstream, '--port', '0', ...args],
    { cwd: ROOT, env: { PATH: process.env.PATH } },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /proxy on (\S+)/.exec(output);
      if (match) {
        clearInterval(timer);
        resolve(match[1]);
      }
      if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`the proxy ended: ${output}`));
      }
    }, 50);
  });
  return { child, url, output: () => output };
}

/** A GET whose answer the client drops after its first bytes. */
function abortMidAnswer(url: string): Promise<void> {
  return new Promise((resolve) => {
    const req = request(url, (res) => {
      res.once('data', () => {
        req.destroy();
        resolve();
      });
    });
    req.on('error', () => resolve());
    req.end();
  });
}

/** A POST that announces 1000 bytes, sends 10 and goes away. */
function abortMidRequest(url: string): Promise<void> {
  return new Promise((resolve) => {
    const req = request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': '1000' },
    });
    req.on('error', () => resolve());
    req.write('{"name":"x');
    setTimeout(() => {
      req.destroy();
      resolve();
    }, 100);
  });
}

describe('passive proxy against hostile peers', () => {
  it('should stay up through resets and aborts on both sides, record them as aborted, and write its reports periodically and on SIGTERM', async () => {
    const upstream = await hostileUpstream();
    const dir = mkdtempSync(path.join(tmpdir(), 'proxy-hostile-'));
    const junit = path.join(dir, 'junit.xml');
    const ndjson = path.join(dir, 'run.ndjson');
    const html = path.join(dir, 'report.html');
    let child: ChildProcess | undefined;
    try {
      const proxy = await startProxyChild(upstream.url, [
        ...['--junit', junit, '--ndjson', ndjson, '--html', html, '--report-every', '1'],
      ]);
      child = proxy.child;
      // The upstream resets mid-body: the client sees the answer break off, as it would without the proxy.
      await expect(fetch(`${proxy.url}/reset`).then((res) => res.text())).rejects.toThrow();
      await abortMidAnswer(`${proxy.url}/slow`);
      await abortMidRequest(`${proxy.url}/ok`);
      // A target a URL parser refuses as a host (`//a<b/`) once ended the proxy: it is the upstream's path.
      const odd = await sendRaw(proxy.url, 'GET //a<b/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      expect(odd.status).toBe(200);
      // What the proxy does not forward is answered in the error shape: a target elsewhere, HTTP Node refuses.
      const elsewhere = await sendRaw(
        proxy.url,
        'GET http://example.com/v1/x HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n',
      );
      expect([elsewhere.status, elsewhere.body?.reason]).toEqual([400, 'invalid_target']);
      const malformed = await sendRaw(
        proxy.url,
        'POST /v1/x HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
      );
      expect([malformed.status, malformed.body?.reason]).toEqual([400, 'malformed_http']);
      expect(malformed.body.errorMessage).toEqual(expect.any(String));
      const tunnel = await sendRaw(proxy.url, 'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n');
      expect([tunnel.status, tunnel.body?.reason]).toEqual([405, 'method_not_allowed']);
      // The path as sent, not as a URL resolves it (`%2e%2e` would have taken the segment before it away).
      const echoed = await sendRaw(proxy.url, 'GET /v1/echo/%2e%2e/x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      expect(echoed.body).toEqual({ url: '/v1/echo/%2e%2e/x' });
      // A malformed request pipelined behind an answer on its way closes the connection; never written into it.
      const pipelined = await new Promise<string>((resolve) => {
        const { hostname, port } = new URL(proxy.url);
        const socket = connect(Number(port), hostname, () => {
          socket.write('GET /v1/slow HTTP/1.1\r\nHost: x\r\n\r\n');
          setTimeout(
            () => socket.write('POST /v1/x HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab'),
            300,
          );
        });
        let seen = '';
        socket.on('data', (chunk: Buffer) => (seen += chunk.toString()));
        socket.on('close', () => resolve(seen));
        socket.on('error', () => undefined);
        setTimeout(() => socket.destroy(), 5000);
      });
      expect(pipelined).toMatch(/^HTTP\/1\.1 200/);
      expect(pipelined).not.toContain('malformed_http');
      // Clients that send CONNECT and reset at once: the proxy outlives them.
      await Promise.all(
        Array.from(
          { length: 30 },
          () =>
            new Promise<void>((resolve) => {
              const { hostname, port } = new URL(proxy.url);
              const socket = connect(Number(port), hostname, () =>
                socket.write('CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: x\r\n\r\n', () => {
                  socket.resetAndDestroy();
                  resolve();
                }),
              );
              socket.on('error', () => resolve());
            }),
        ),
      );
      await sleep(200);
      // Still up, and still forwarding.
      const ok = await fetch(`${proxy.url}/ok`, { method: 'POST', body: '{}' });
      expect(await ok.json()).toEqual({ ok: true });

      // Written periodically, before any signal: a proxy killed outright keeps its findings up to then.
      for (let waited = 0; waited < 5000 && !(existsSync(junit) && existsSync(html)); waited += 100) await sleep(100);
      expect(existsSync(junit)).toBe(true);
      expect(existsSync(html)).toBe(true);

      const code = await new Promise<number | null>((resolve) => {
        child!.once('exit', (exitCode) => resolve(exitCode));
        child!.kill('SIGTERM');
      });
      expect(proxy.output()).not.toMatch(/Unhandled|unhandled|ECONNRESET|at .*\.ts:\d+/);
      expect([0, 1]).toContain(code);
      new SaxesParser().write(readFileSync(junit, 'utf8')).close();
      const records = readFileSync(ndjson, 'utf8')
        .trim()
        .split('\n')
        .map(
          (line) => JSON.parse(line) as { event: string; phase?: string; error?: string; request?: { url: string } },
        );
      const aborted = records.filter((r) => r.event === 'exchange' && r.error?.startsWith('aborted:'));
      expect(aborted.map((r) => r.error)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/upstream (reset|closed) the connection mid-body/),
          expect.stringMatching(/client (reset|closed) the connection mid-answer/),
          expect.stringMatching(/client (reset|closed) the connection mid-request/),
        ]),
      );
      expect(records[records.length - 1]).toMatchObject({ event: 'run', phase: 'end' });
    } finally {
      if (child && child.exitCode === null) child.kill('SIGKILL');
      await new Promise((resolve) => upstream.server.close(resolve));
      upstream.server.closeAllConnections();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
