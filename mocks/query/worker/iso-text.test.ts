import fc from 'fast-check';
import initSqlJs from 'sql.js';
import { derivesIso } from '../../store/runs';
import { isoExpression } from './database';

/**
 * A kept row holds an instant as milliseconds only where the engine writes the same ISO text from them as
 * JavaScript does (mocks/store/runs.ts `derivesIso`): checked on SQLite itself, at the edges and at random.
 */
describe('ISO text derived by the SQL engine', () => {
  it('should write every instant the store leaves to it exactly as toISOString does', async () => {
    const SQL = await initSqlJs();
    const db = new SQL.Database();
    const statement = db.prepare(`SELECT ${isoExpression('NULL', ':ms')} AS text`);
    const derived = (ms: number) => {
      statement.bind({ ':ms': ms });
      statement.step();
      const text = statement.getAsObject().text;
      statement.reset();
      return text;
    };
    const edges = [0, 1, 999, 1000, 86_399_999, 951_782_400_000, 1_700_000_000_123, 253_402_300_799_999];
    for (const ms of edges) expect([ms, derived(ms)]).toEqual([ms, new Date(ms).toISOString()]);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), (ms) => {
        expect(derivesIso(ms)).toBe(true);
        expect(derived(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 2000 },
    );
    for (const ms of [-1, 0.5, 1_700_000_000_000.25, 253_402_300_800_000, -8.64e15]) expect(derivesIso(ms)).toBe(false);
    statement.free();
    db.close();
  });
});
