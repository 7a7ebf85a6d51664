import { startMock } from './app';
import { readConfigFromEnv } from './config';
import { seedWorkspace } from './store/seed';

/** How long requests in flight may take to finish once a stop signal arrives. */
const STOP_GRACE_MS = 10_000;

/** `npm start`: the mock on embedded defaults, every setting overridable through the environment. */
async function main(): Promise<void> {
  const config = readConfigFromEnv();
  const onContractViolation =
    process.env.MOCK_CHECK_RESPONSES === '1'
      ? (violations: string[]) =>
          process.stderr.write(`mock: response breaks the contract:\n  ${violations.join('\n  ')}\n`)
      : undefined;
  const mock = await startMock({ ...config, onContractViolation });
  const authUrl = config.authUrl ?? `${mock.origin}/auth`;
  const redirectUris = (
    config.oauthRedirectUris ?? ['http://localhost/callback', 'http://127.0.0.1/callback', 'http://[::1]/callback']
  ).join(', ');
  const tokens = Object.entries(config.tokens)
    .map(([token, workspace]) => `  ${token} → workspace ${workspace}`)
    .join('\n');
  // The contract has no list of workflows, models, domains or environment variables: show a few seeded ids.
  const ids = [...new Set(Object.values(config.tokens))]
    .map((workspace) => {
      // Read from the seed itself: the same ids whichever store (and replica) holds the state.
      const state = seedWorkspace(workspace, config.seed);
      const first = (map: Map<string, unknown>) => [...map.keys()].slice(0, 2).join(', ');
      return `  workspace ${workspace}\n    workflows: ${first(state.workflows)}\n    models: ${first(state.models)}\n    domains: ${first(state.domains)}\n    env vars: ${first(state.envVars)}`;
    })
    .join('\n');
  // The URL is shown without its password.
  const storage = config.redisUrl
    ? `Redis ${config.redisUrl.replace(/\/\/[^@/]*@/, '//***@')} (key prefix "${config.redisPrefix}"), shared with every replica on it and kept across restarts`
    : 'in memory: lost when this process stops (MOCK_REDIS_URL keeps it in Redis)';
  process.stdout.write(
    `Mock API listening on ${mock.url}\nState: ${storage}.\nTokens (Authorization: Bearer <token>):\n${tokens}\nOAuth auth_url: ${authUrl} (client mock-frontend; redirect URIs: ${redirectUris}; loopback ones on any port)\nSeeded ids (MOCK_SEED=${config.seed}):\n${ids}\nPrefer: code=/example=/dynamic=true answers are examples from the spec, not the mock's state.\nControl plane (reset, fixtures, outcomes, faults): ${mock.origin}/__mock${config.adminToken ? ' (needs MOCK_ADMIN_TOKEN)' : ''}${config.fixturesPath ? `; fixtures from ${config.fixturesPath}` : ''}\n`,
  );
  // SIGINT/SIGTERM: no new connections, requests in flight finish (up to 10 s), the port is freed, then exit.
  let stopping = false;
  const stop = (why: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`mock: ${why}; finishing requests in flight, then stopping.\n`);
    mock.close({ graceMs: STOP_GRACE_MS }).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGHUP', () => stop('SIGHUP'));
  // Started by a wrapper (npm start) that was killed without passing the signal on: stop with it.
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) stop('the parent process is gone');
  }, 1000).unref();
}

main().catch((error) => {
  process.stderr.write(`mock: failed to start: ${error instanceof Error ? error.message : error}\n`);
  process.exit(1);
});
