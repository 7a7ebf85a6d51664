import { loadContract } from '../../spec/lib';
import { queryTableSchema, type TableName } from './tables';

/** The engine's tables and the spec's Query*Row schemas describe the same columns (the spec is the source of truth). */
const rowSchemaOf: Record<TableName, string> = {
  runs: 'QueryRunRow',
  batches: 'QueryBatchRow',
  logs: 'QueryLogRow',
  records: 'QueryRecordRow',
  spans: 'QuerySpanRow',
};

const spec = loadContract().document as unknown as {
  components: { schemas: Record<string, { properties: Record<string, { type: string | string[] }> }> };
};

describe('query tables', () => {
  it.each(Object.entries(rowSchemaOf))('should give %s the columns of %s', (table, schemaName) => {
    const properties = spec.components.schemas[schemaName].properties;
    const columns = queryTableSchema[table as TableName];
    expect(columns.map(([name]) => name)).toEqual(Object.keys(properties));
    for (const [name, type] of columns) {
      const types = [properties[name].type].flat();
      expect(type === 'INTEGER').toBe(types.includes('integer'));
    }
  });
});
