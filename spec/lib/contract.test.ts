import { annotationsAt, listAnnotations } from './annotations';
import {
  IDEMPOTENCY_KEY_MAX_LENGTH,
  MINIMUM_SUNSET_GAP_DAYS,
  RATE_LIMIT_HEADER_NAMES,
  RUN_STATUSES,
  TERMINAL_STATUSES,
} from './constants';
import { loadContract } from './contract';

describe('the contract as the library reads it', () => {
  const contract = loadContract();

  it('should read the named facts from the document', () => {
    expect(contract.constants.rateLimitHeaders).toEqual(RATE_LIMIT_HEADER_NAMES);
    expect(RATE_LIMIT_HEADER_NAMES).toHaveLength(8);
    expect(contract.constants.runStatuses).toEqual(RUN_STATUSES);
    expect(contract.constants.terminalStatuses).toEqual(TERMINAL_STATUSES);
    expect(TERMINAL_STATUSES.every((status) => RUN_STATUSES.includes(status))).toBe(true);
    expect(contract.constants.idempotencyKeyMaxLength).toBe(IDEMPOTENCY_KEY_MAX_LENGTH);
    expect(IDEMPOTENCY_KEY_MAX_LENGTH).toBe(255);
    expect(MINIMUM_SUNSET_GAP_DAYS).toBe(180);
    expect(contract.basePath).toBe('/v1');
  });

  it('should give every operation an id and find it by that id', () => {
    for (const operation of contract.operations) expect(contract.operation(operation.operationId)).toBe(operation);
  });

  it('should read x-assumption of a node, following a $ref to an annotated target', () => {
    expect(annotationsAt(contract.document, '#/components/parameters/UuidPath').assumption).toMatch(/uuid/);
    const parameterRef = contract.operation('getWorkflow')!.pointer + '/parameters/0';
    expect(annotationsAt(contract.document, parameterRef).assumption).toMatch(/uuid/);
    const annotations = listAnnotations(contract.document);
    expect(annotations.find((a) => a.pointer === '#/info')).toMatchObject({ kind: 'assumption' });
    expect(annotations.every((a) => contract.at(a.pointer) !== undefined)).toBe(true);
  });
});
