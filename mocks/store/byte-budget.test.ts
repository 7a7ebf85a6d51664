import { createByteBudget } from './byte-budget';

const WORKSPACE = 'ws';

describe('the byte ledger', () => {
  it('should release the oldest keys once the owner is past its bytes', () => {
    const budget = createByteBudget(100);
    expect(budget.add(WORKSPACE, 'a', 60)).toEqual([]);
    expect(budget.add(WORKSPACE, 'b', 60)).toEqual(['a']);
    expect(budget.bytes(WORKSPACE)).toBe(60);
  });

  it('should stay within the count of keys the port keeps: the keys past it are forgotten, not released', () => {
    // The port drops its oldest keys beyond its cap itself; a ledger that kept them grew without end on small
    // entries (100 000 empty exports kept 100 000 ledger keys for a cap of 1000).
    const budget = createByteBudget(1024 * 1024, 100);
    for (let i = 0; i < 10_000; i++) expect(budget.add(WORKSPACE, `k${i}`, 10)).toEqual([]);
    expect(budget.bytes(WORKSPACE)).toBe(100 * 10);
  });

  it('should put the forgotten keys back when the write that forgot them is cancelled', () => {
    const budget = createByteBudget(1000, 2);
    budget.add(WORKSPACE, 'a', 10);
    budget.add(WORKSPACE, 'b', 20);
    const reservation = budget.reserve(WORKSPACE, 'c', 30);
    expect(budget.bytes(WORKSPACE)).toBe(50);
    reservation.cancel();
    expect(budget.bytes(WORKSPACE)).toBe(30);
    // 'a' is back as the oldest: the next key past the count forgets it first.
    budget.add(WORKSPACE, 'd', 5);
    expect(budget.bytes(WORKSPACE)).toBe(25);
  });
});
