/**
 * `npm run oauth:flood [-- --count 10000 --redis]`: the OAuth attacks of one client with volume, at full scale and
 * with the mock's default bounds, against a running mock (in this process; `--redis` on a real `redis-server`
 * from scripts/ensure-redis.sh). Each attack floods one user's client, then checks another user's entry:
 *
 * - `--count` refreshes of Ada's grant, then Bo's refresh token is refreshed;
 * - Bo's access token revoked, then `--count` of Ada's access tokens revoked, then Bo's token is tried;
 * - `--count` /authorize calls for Ada, then Bo's code (issued before) is exchanged.
 *
 * Prints per attack what the flood got (answers by kind) and the victim's answer, with the time taken; exits 1 if
 * a victim's entry was voided. The test suite floods small configured bounds (mocks/oauth/client-bounds.test.ts).
 */
import { startMock } from '../mocks/app';
import { defaultAuthConfig } from '../mocks/oauth';
import { oauthFlow } from '../mocks/testing/oauth-flow';
import { startRedisServer, type RedisServer } from '../mocks/testing/redis-server';
import { MAX_RATE_LIMIT } from '../mocks/limits';

function readArgs(argv: string[]): { count: number; redis: boolean } {
  const args = { count: 10_000, redis: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--redis') args.redis = true;
    else if (argv[i] === '--count' && Number.isInteger(Number(argv[i + 1])) && Number(argv[i + 1]) > 0)
      args.count = Number(argv[++i]);
    else throw new Error(`oauth:flood: unknown or invalid option ${argv[i]}; use --count <n> --redis`);
  }
  return args;
}

/** Runs `count` calls, `parallel` at a time, and tallies their outcomes. */
async function flood<T>(count: number, call: (i: number) => Promise<T>, kind: (result: T) => string) {
  const tally = new Map<string, number>();
  const results: T[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const result = await call(i);
      results[i] = result;
      tally.set(kind(result), (tally.get(kind(result)) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return { results, tally: [...tally].map(([name, n]) => `${name} ×${n}`).join(', ') };
}

async function main(): Promise<void> {
  const { count, redis: onRedis } = readArgs(process.argv.slice(2));
  let redis: RedisServer | undefined;
  if (onRedis) redis = await startRedisServer();
  // The OAuth rate limit per address would stop the flood first: lifted, so the store's own bounds are what hold.
  const mock = await startMock({
    port: 0,
    authRateLimit: MAX_RATE_LIMIT,
    ...(redis ? { redisUrl: redis.url, redisPrefix: 'oauth-flood:' } : {}),
  });
  const flow = oauthFlow(mock.origin);
  const [ada, bo] = defaultAuthConfig.users;
  const rows: string[][] = [];
  let voided = 0;
  const attack = async (name: string, run: () => Promise<{ flood: string; victim: string; ok: boolean }>) => {
    const started = performance.now();
    const { flood: got, victim, ok } = await run();
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    rows.push([name, got, victim, seconds]);
    if (!ok) voided += 1;
  };
  try {
    const boTokens = (await flow.login(bo)).body;
    let adaTokens = (await flow.login(ada)).body;
    const adaAccessTokens: string[] = [];
    await attack(`${count} refreshes of Ada's grant, then Bo's refresh token`, async () => {
      const statuses = new Map<number, number>();
      for (let i = 0; i < count; i++) {
        const next = await flow.refresh(adaTokens.refresh_token);
        statuses.set(next.status, (statuses.get(next.status) ?? 0) + 1);
        if (next.status !== 200) break;
        adaTokens = next.body;
        adaAccessTokens.push(adaTokens.access_token);
      }
      const refreshed = await flow.refresh(boTokens.refresh_token);
      const got = [...statuses].map(([status, n]) => `${status} ×${n}`).join(', ');
      return { flood: got, victim: `refresh ${refreshed.status}`, ok: refreshed.status === 200 };
    });

    await attack(`Bo's access token revoked, then ${count} of Ada's revoked`, async () => {
      const boAccess = (await flow.login(bo)).body.access_token;
      await flow.revoke(boAccess);
      const { tally } = await flood(
        adaAccessTokens.length,
        (i) => flow.revoke(adaAccessTokens[i]),
        (r) => `${r.status}`,
      );
      const stillWorks = await flow.works(boAccess);
      return { flood: tally, victim: stillWorks ? 'works again' : 'still revoked', ok: !stillWorks };
    });
    // Last: Ada's client then holds its bound of codes, and new logins for Ada wait for them to expire (60 s).
    await attack(`${count} /authorize for Ada, then Bo's earlier code`, async () => {
      const boCode = await flow.authorize(bo);
      const { tally } = await flood(
        count,
        () => flow.authorize(ada),
        (r) => (r.code ? 'code' : `${r.error}`),
      );
      const exchanged = await flow.exchange(boCode);
      return { flood: tally, victim: `exchange ${exchanged.status}`, ok: exchanged.status === 200 };
    });
  } finally {
    await mock.close();
    await redis?.stop();
  }
  console.log(`OAuth floods (${onRedis ? 'Redis' : 'memory'} store, default bounds)`);
  console.log('| attack | the flood got | another user | s |');
  console.log('|---|---|---|---:|');
  for (const row of rows) console.log(`| ${row.join(' | ')} |`);
  if (voided > 0) {
    console.error(`${voided} attack(s) voided another user's entry`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
