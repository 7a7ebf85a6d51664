import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The SQL worker is TypeScript and a worker thread shares no loader with its parent: it must start as the mock
 * is started (`npm start`: node with tsx's CommonJS hook), not only under jest. A query answered in a child
 * process started that way proves the bootstrap.
 */
it('should answer a query from a worker started under node with tsx, as npm start runs the mock', async () => {
  const script = `
    const { createQueryEngine } = require('./mocks/query');
    const engine = createQueryEngine({ readTables: () => ({ runs: [], batches: [], logs: [], records: [], spans: [] }), workers: 1 });
    engine.query('w', 'SELECT 40 + 2 AS n').then(async (answer) => {
      process.stdout.write(JSON.stringify(answer));
      await engine.close();
    });`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--require', 'tsx/cjs', '-e', script], {
    cwd: join(__dirname, '..', '..'),
    timeout: 60_000,
  });
  expect(JSON.parse(stdout)).toEqual({ rows: [{ n: 42 }] });
});
