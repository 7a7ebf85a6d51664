/**
 * Runs the suite (or some of its checks) against the independent server started in-process on an ephemeral port;
 * used by the tests, the mutation harness and `npx tsx conformance/independent/run-independent.ts [--allow-writes] [--seed n]`.
 */
import { allChecks } from '../checks';
import { parseConfig, type RunConfig } from '../config';
import { runConformance, type Reporter, type RunSummary } from '../runner';
import { startIndependentServer, type IndependentOptions } from './server';

export async function runAgainstIndependent(
  options: IndependentOptions = {},
  overrides: Partial<RunConfig> = {},
  reporters: Reporter[] = [],
): Promise<RunSummary> {
  const server = await startIndependentServer(options);
  try {
    const config: RunConfig = {
      ...parseConfig(['--target', server.url, '--token', server.tokenA, '--token-b', server.tokenB], {}),
      ...overrides,
    };
    return await runConformance(config, { checks: allChecks(), reporters });
  } finally {
    await server.close();
  }
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const seedAt = args.indexOf('--seed');
  const overrides: Partial<RunConfig> = { allowWrites: args.includes('--allow-writes') };
  if (seedAt >= 0) overrides.seed = Number(args[seedAt + 1]);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { ConsoleReporter } = require('../reporters/console') as typeof import('../reporters/console');
  runAgainstIndependent({}, overrides, [new ConsoleReporter()]).then((summary) => process.exit(summary.exitCode));
}
