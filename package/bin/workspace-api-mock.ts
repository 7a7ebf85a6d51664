#!/usr/bin/env node
// `workspace-api-mock`: the package's command; compiled to dist/, run by node (no TypeScript at run time).
// The mock reads its settings from the environment only; arguments get a short help instead of being ignored.

const HELP = `Usage: [PORT=4010] [HOST=127.0.0.1] [MOCK_…=…] workspace-api-mock

The stateful mock of the Workspace Automation API: http://127.0.0.1:4010/v1 by default, tokens mock-token-a and
mock-token-b. Settings are environment variables (PORT, HOST and MOCK_*; PORT=0 takes a free port, printed on
start), listed under "Settings" in the package's README. The control plane (reset, fixtures, outcomes, faults) is
at <origin>/__mock (a tenant's token steers its own workspace; MOCK_ADMIN_TOKEN every workspace); its typed
client is workspace-automation-api-contract/control. MOCK_USAGE_REPORT=<path> writes what the mock answered (per
operation x status x outcome, and the stated statuses no answer met) as JSON there, and as markdown beside it,
when it stops. In a test runner's global set-up, startMock() from workspace-automation-api-contract starts it
in-process with the same settings, and rejects with the mock's error when it cannot start.
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
