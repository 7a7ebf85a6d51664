import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import path from 'node:path';
import { defined } from './testing/defined';

/** `npm start` as users run it: its PID is npm's, and the server must stop with it. */
function npmStart(): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn('npm', ['start', '--silent'], {
    cwd: path.join(__dirname, '..'),
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  defined(child.stdout, 'child.stdout').on('data', (chunk) => (text += chunk));
  defined(child.stderr, 'child.stderr').on('data', (chunk) => (text += chunk));
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const found = /listening on (http:\/\/\S+)/.exec(text);
      if (found) {
        clearInterval(timer);
        resolve({ child, url: found[1], output: () => text });
      }
    }, 50);
    child.once('exit', (code) => {
      clearInterval(timer);
      reject(new Error(`npm start exited (${code}): ${text}`));
    });
  });
}

const portIsFree = (url: string) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));

describe('npm start lifecycle', () => {
  it('should say the state is in memory, finish a request in flight on SIGTERM to npm, then free the port', async () => {
    const { child, url, output } = await npmStart();
    expect(output()).toMatch(/State: in memory: lost when this process stops/);
    const inFlight = fetch(`${url}/mailboxManagement/suppressions`, {
      headers: { authorization: 'Bearer mock-token-a', prefer: 'latency=1500' },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill('SIGTERM');
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    await exited(child);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await portIsFree(url)).toBe(true);
  }, 60_000);

  it('should stop the server when npm is killed outright', async () => {
    const { child, url } = await npmStart();
    child.kill('SIGKILL');
    let free = false;
    for (let i = 0; i < 40 && !free; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      free = await portIsFree(url);
    }
    expect(free).toBe(true);
  }, 60_000);
});

describe('an in-process mock closed in a script', () => {
  it('should resolve close() after SQL queries, so the script goes on (it ended at the close, exit 0)', async () => {
    // A plain node script: nothing but the mock keeps its event loop turning (jest would keep this one alive).
    const script = `
      const { startMock } = require('./mocks/app');
      (async () => {
        const mock = await startMock({ port: 0, host: '127.0.0.1' });
        const answer = await fetch(mock.url + '/orchestration/query', {
          method: 'POST',
          headers: { authorization: 'Bearer mock-token-a', 'content-type': 'application/json' },
          body: JSON.stringify({ query: 'SELECT 1 AS one' }),
        });
        process.stdout.write('query ' + answer.status + ' ' + (await answer.text()) + '\\n');
        await mock.close();
        process.stdout.write('after close\\n');
        process.exitCode = 3;
      })();`;
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', '-e', script], {
      cwd: path.join(__dirname, '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    defined(child.stdout, 'child.stdout').on('data', (chunk) => (out += chunk));
    defined(child.stderr, 'child.stderr').on('data', (chunk) => (out += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(out).toMatch(/query 200 .*"one":1/);
    expect(out).toMatch(/after close/);
    expect(code).toBe(3);
  }, 60_000);
});
