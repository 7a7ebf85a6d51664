/**
 * Every place the control client takes an operation id takes the union of the contract's operation ids (the
 * generated `operations`), so a misspelled one fails to compile: `npm run typecheck` compiles this file, and each
 * `@ts-expect-error` below fails the compile if its line ever compiles. The run-time check stays (a client in
 * JavaScript): the mock answers 400 naming the operations.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadContract } from '../../spec/lib';
import { SPEC_PATH } from '../testing/client';
import { createMockControl, type FaultRule, type FaultSetting, type OperationId, type SettingsChange } from './client';
import type { UsageRow } from './usage';

const mock = createMockControl({ url: 'http://127.0.0.1:1', fetch: async () => new Response('{}') });

export const typed = {
  setting: { operation: 'getRun', fault: 'reset', share: 0.5 } satisfies FaultSetting,
  // @ts-expect-error a misspelled operation id in a fault setting does not compile
  settingTypo: { operation: 'getRnu', fault: 'reset', share: 0.5 } satisfies FaultSetting,
  rule: { operation: 'createRun', fault: 'empty' } satisfies FaultRule,
  // @ts-expect-error a misspelled operation id in a fault rule does not compile
  ruleTypo: { operation: 'createRuns', fault: 'empty' } satisfies FaultRule,
  change: { faults: [{ operation: 'listSuppressions', fault: 'hang' }] } satisfies SettingsChange,
  // @ts-expect-error a misspelled operation id in a settings change does not compile
  changeTypo: { faults: [{ operation: 'listSupressions', fault: 'hang' }] } satisfies SettingsChange,
  faults: () => mock.setFaults([{ operation: 'getBatch', fault: 'truncated' }]),
  // @ts-expect-error a misspelled operation id given to setFaults does not compile
  faultsTypo: () => mock.setFaults([{ operation: 'getbatch', fault: 'truncated' }]),
  usage: (row: UsageRow): OperationId => row.operation,
  // @ts-expect-error the usage report's operation is the union too, not any string
  usageTypo: (row: UsageRow) => row.operation === 'getRuns',
};

describe('operation ids in the control client', () => {
  it("should be the contract's operations, as the generated types name them", () => {
    // The union is `keyof operations` of the generated file: its keys, read from the file, are the contract's ids.
    const generated = readFileSync(join(__dirname, '..', '..', 'generators', 'generated', 'openapi.ts'), 'utf8');
    const body = generated.slice(generated.indexOf('export interface operations {'));
    const keys = [...body.matchAll(/^ {4}([A-Za-z0-9_]+): \{$/gm)].map((match) => match[1]);
    expect(keys).toEqual(loadContract(SPEC_PATH).operations.map((op) => op.operationId));
  });
});
