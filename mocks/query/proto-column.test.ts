import { createQueryEngine } from './index';

describe('query result rows', () => {
  const engine = createQueryEngine({ readTables: () => ({ runs: [], batches: [], logs: [], records: [], spans: [] }) });
  afterAll(() => engine.close());

  it('should keep a column named __proto__ as a field of the row', async () => {
    const { rows } = await engine.query(
      '0b1f1a8e-2c3d-4e5f-8a9b-0c1d2e3f4a5b',
      'SELECT 1 AS __proto__, 2 AS constructor',
    );
    expect(JSON.stringify(rows)).toBe('[{"__proto__":1,"constructor":2}]');
  });
});
