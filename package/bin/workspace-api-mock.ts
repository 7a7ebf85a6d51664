#!/usr/bin/env node
// `workspace-api-mock`: the package's command; compiled to dist/, run by node (no TypeScript at run time).
// The mock reads its settings from the environment only; arguments get a short help instead of being ignored.

const HELP = `Usage: [PORT=4010] [HOST=127.0.0.1] [MOCK_…=…] workspace-api-mock

The stateful mock of the Workspace Automation API: http://127.0.0.1:4010/v1 by default, tokens mock-token-a and
mock-token-b. Settings are environment variables (PORT, HOST and MOCK_*; PORT=0 takes a free port, printed on
start), listed under "Settings" in the package's README. The control plane (reset, fixtures, outcomes, faults) is
at <origin>/__mock (a tenant's token steers its own workspace; MOCK_ADMIN_TOKEN every workspace); its typed
client is workspace-automation-api-contract/control.
`;

const args = process.argv.slice(2);
if (args.length > 0) {
  const asked = args.every((arg) => arg === '--help' || arg === '-h');
  (asked ? process.stdout : process.stderr).write(
    asked ? HELP : `workspace-api-mock takes no arguments (got ${args.join(' ')}).\n\n${HELP}`,
  );
  process.exitCode = asked ? 0 : 2;
} else {
  void import('../../mocks/server');
}
