// The package's main entry (`workspace-automation-api-contract`): the mock in-process for test set-ups. The
// commands, the types, the control client, the fixtures' types and the contract have entries of their own.
export { startMock, MockStartError, type StartedMock } from './start-mock';
export type { UsageGap, UsageReport, UsageRow } from '../mocks/control/usage-report';
