import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';

export type RedisServer = {
  url: string;
  port: number;
  /** Stops the server (its data is gone: it keeps none on disk). */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
};

let binary: string | undefined;

/** The redis-server binary, installed from Debian's package by scripts/ensure-redis.sh where it is missing. */
export function redisServerBinary(): string {
  binary ??= execFileSync(join(__dirname, '..', '..', 'scripts', 'ensure-redis.sh'), {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 600_000,
  }).trim();
  return binary;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.setTimeout(500);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** A real redis-server on a free loopback port, without persistence; for tests and the benchmark. */
export async function startRedisServer(): Promise<RedisServer> {
  const bin = redisServerBinary();
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(
      bin,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--protected-mode',
        'no',
        '--loglevel',
        'warning',
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    child = started;
    for (let attempt = 0; attempt < 200; attempt++) {
      if (started.exitCode !== null) throw new Error(`redis-server exited with ${started.exitCode}`);
      if (await answersPing(port)) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error(`redis-server did not answer on port ${port}`);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  };
  await start();
  return { url: `redis://127.0.0.1:${port}/0`, port, stop, start };
}
