import fc from 'fast-check';
import { OldestFirst } from './oldest-first';

describe('OldestFirst', () => {
  it('should keep the order, sizes and values a Map keeps, whatever the sets and deletes', () => {
    const op = fc.oneof(
      fc.record({ set: fc.integer({ min: 0, max: 20 }), value: fc.integer() }),
      fc.record({ delete: fc.integer({ min: 0, max: 20 }) }),
      fc.constant({ dropOldest: true }),
      fc.constant({ take: true }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
        const model = new Map<string, number>();
        const ours = new OldestFirst<number>();
        for (const step of ops) {
          if ('set' in step) {
            // A Map keeps a key set again in its first place; a bounded store means "newest": delete, then set.
            model.delete(`k${step.set}`);
            model.set(`k${step.set}`, step.value);
            ours.set(`k${step.set}`, step.value);
          } else if ('delete' in step) {
            expect(ours.delete(`k${step.delete}`)).toBe(model.delete(`k${step.delete}`));
          } else if ('take' in step) {
            const first = model.entries().next();
            expect(ours.takeOldest()).toEqual(first.done ? undefined : first.value);
            if (!first.done) model.delete(first.value[0]);
          } else {
            const first = model.entries().next();
            expect(ours.oldest()).toEqual(first.done ? undefined : first.value);
            if (!first.done) {
              model.delete(first.value[0]);
              ours.delete(first.value[0]);
            }
          }
          expect(ours.size).toBe(model.size);
        }
        expect([...ours]).toEqual([...model]);
        const first = model.entries().next();
        expect(ours.oldest()).toEqual(first.done ? undefined : first.value);
      }),
    );
  });

  it('should find the oldest of a full bounded store without walking what was dropped', () => {
    const keys = new OldestFirst<number>();
    for (let i = 0; i < 10_000; i++) keys.set(`k${i}`, i);
    for (let i = 10_000; i < 60_000; i++) {
      keys.set(`k${i}`, i);
      keys.delete(keys.oldest()![0]);
    }
    expect(keys.size).toBe(10_000);
    expect(keys.oldest()).toEqual(['k50000', 50_000]);
    expect(keys.get('k59999')).toBe(59_999);
  });

  it('should drop its oldest key to make room, and forget every key when cleared', () => {
    const keys = new OldestFirst<number>([
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    keys.set('a', 4); // set again: the newest now
    keys.dropOldest();
    expect([...keys.keys()]).toEqual(['c', 'a']);
    keys.clear();
    expect(keys.size).toBe(0);
    expect(keys.oldest()).toBeUndefined();
    keys.dropOldest();
    keys.set('d', 5);
    expect(keys.oldest()).toEqual(['d', 5]);
  });
});
