import { startMock } from './app';
import { readConfigFromEnv } from './config';

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
  process.stdout.write(`Mock API listening on ${mock.url}\nTokens (Authorization: Bearer <token>):\n${tokens}\nOAuth auth_url: ${authUrl}\n`);
  const stop = () => void mock.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error) => {
  process.stderr.write(`mock: failed to start: ${error instanceof Error ? error.message : error}\n`);
  process.exit(1);
});
