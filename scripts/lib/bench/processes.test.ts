import { createQueryEngine } from '../../../mocks/query';
import { threadCpuMs } from './processes';

/** The soak splits the server's CPU time by thread: the main thread by its id, the SQL workers by their name. */
describe('threadCpuMs', () => {
  const engine = createQueryEngine({ readTables: () => ({ runs: [], batches: [], logs: [], records: [], spans: [] }) });
  afterAll(() => engine.close());

  it('should list the main thread under the process id and each SQL worker under its name', async () => {
    await engine.query('0b1f1a8e-2c3d-4e5f-8a9b-0c1d2e3f4a5b', 'SELECT 1');
    const threads = threadCpuMs(process.pid);
    expect(threads.get(process.pid)?.ms).toBeGreaterThan(0);
    const workers = [...threads.entries()].filter(([, thread]) => thread.name === 'sql-worker');
    expect(workers).toHaveLength(2);
    expect(workers.some(([, thread]) => thread.ms > 0)).toBe(true);
  });

  it('should list nothing for a process that is not there', () => {
    expect(threadCpuMs(2 ** 30).size).toBe(0);
  });
});
