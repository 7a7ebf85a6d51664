import { startMock } from './app';
import { readConfigFromEnv } from './config';
import { seedWorkspace } from './store/seed';

/** `npm start`: the mock on embedded defaults, every setting overridable through the environment. */
async function main(): Promise<void> {
  const config = readConfigFromEnv();
  const onContractViolation =
    process.env.MOCK_CHECK_RESPONSES === '1' ? (violations: string[]) => process.stderr.write(`mock: response breaks the contract:\n  ${violations.join('\n  ')}\n`) : undefined;
  const mock = await startMock({ ...config, onContractViolation });
  const authUrl = config.authUrl ?? `${mock.origin}/auth`;
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
  const state = config.redisUrl ? `Redis ${config.redisUrl.replace(/\/\/[^@/]*@/, '//***@')} (key prefix "${config.redisPrefix}"), shared with every replica on it` : 'in memory (this process only)';
  process.stdout.write(`Mock API listening on ${mock.url}\nState: ${state}\nTokens (Authorization: Bearer <token>):\n${tokens}\nOAuth auth_url: ${authUrl}\nSeeded ids (MOCK_SEED=${config.seed}):\n${ids}\nPrefer: code=/example=/dynamic=true answers are examples from the spec, not the mock's state.\n`);
  const stop = () => void mock.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error) => {
  process.stderr.write(`mock: failed to start: ${error instanceof Error ? error.message : error}\n`);
  process.exit(1);
});
