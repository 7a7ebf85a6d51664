import { loadContract, type Operation } from '../spec/lib';
import { callMember, renderOperationCalls } from './operation-calls';

const contract = loadContract();
const operation = (id: string) => contract.operation(id) as Operation;

describe('generated operation calls', () => {
  it.each([
    ['a list without required parameters', 'listSuppressions', 'client.GET("/mailboxManagement/suppressions"))'],
    [
      'a read by id, its path parameter given the sample id',
      'getRun',
      'client.GET("/orchestration/runs/{uuid}", { params: { path: { uuid: ID } } }))',
    ],
    [
      'a write, its body with the required fields',
      'executeQuery',
      `client.POST("/orchestration/query", { body: { query: '' } }))`,
    ],
  ])('should write %s', (_name, operationId, want) => {
    expect(callMember(operation(operationId))).toContain(want);
  });

  it('should write one member per operation of the contract, in a table typed over its operations', () => {
    const text = renderOperationCalls(contract);
    for (const { operationId } of contract.operations) expect(text).toContain(`  ${operationId}: async (client) =>`);
    expect(text).toContain('{ [K in keyof operations]: (client: Client) => Promise<Response> }');
  });
});
