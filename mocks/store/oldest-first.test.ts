import fc from 'fast-check';
import { OldestFirst } from './oldest-first';
import { defined } from '../testing/defined';

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

  it('should answer every method as a reference model does, across compactions and clears', () => {
    /** The reference: an array of [key, value], oldest first; setting a key again moves it last. */
    type Model = [string, number][];
    const find = (model: Model, key: string) => model.findIndex(([k]) => k === key);
    const key = (keys: number) => fc.integer({ min: 0, max: keys - 1 }).map((i) => `k${i}`);
    const ops = (keys: number) =>
      fc.oneof(
        { weight: 60, arbitrary: fc.tuple(fc.constant('set' as const), key(keys), fc.integer()) },
        { weight: 20, arbitrary: fc.tuple(fc.constant('delete' as const), key(keys)) },
        { weight: 20, arbitrary: fc.tuple(fc.constant('get' as const), key(keys)) },
        { weight: 10, arbitrary: fc.tuple(fc.constant('take' as const)) },
        { weight: 10, arbitrary: fc.tuple(fc.constant('drop' as const)) },
        { weight: 5, arbitrary: fc.tuple(fc.constant('list' as const)) },
        { weight: 1, arbitrary: fc.tuple(fc.constant('clear' as const)) },
      );
    // Few keys (a key set again over and over: compaction every ~70 sets) and many (the queue grows first); a
    // clear is rare, so the queue reaches its compactions between clears.
    const grow = (keys: number) => fc.tuple(fc.constant('set' as const), key(keys), fc.integer());
    const runs = fc.oneof(
      fc.array(ops(4), { minLength: 100, maxLength: 600 }),
      fc.array(ops(200), { minLength: 100, maxLength: 600 }),
      // The queue grown long with new keys, emptied from its front, then filled with new keys again.
      fc
        .tuple(
          fc.array(grow(100_000), { minLength: 50, maxLength: 300 }),
          fc.integer({ min: 0, max: 300 }).map((count) => Array.from({ length: count }, () => ['take'] as const)),
          fc.array(grow(100_000), { minLength: 50, maxLength: 300 }),
          fc.array(ops(60), { maxLength: 100 }),
        )
        .map((phases) => phases.flat()),
    );
    fc.assert(
      fc.property(runs, (steps) => {
        // Plain comparisons (not expect) on every step: a failing run shrinks in a second, not minutes.
        const same = (ours: unknown, theirs: unknown, what: string) => {
          if (JSON.stringify(ours) !== JSON.stringify(theirs))
            throw new Error(`${what}: ${JSON.stringify(ours)}, the model says ${JSON.stringify(theirs)}`);
        };
        let model: Model = [];
        const ours = new OldestFirst<number>();
        for (const step of steps) {
          switch (step[0]) {
            case 'set': {
              const at = find(model, step[1]);
              if (at >= 0) model.splice(at, 1);
              model.push([step[1], step[2]]);
              same(ours.set(step[1], step[2]) === ours, true, 'set returns the map');
              break;
            }
            case 'delete': {
              const at = find(model, step[1]);
              if (at >= 0) model.splice(at, 1);
              same(ours.delete(step[1]), at >= 0, `delete ${step[1]}`);
              break;
            }
            case 'get': {
              const at = find(model, step[1]);
              same(ours.get(step[1]), at >= 0 ? model[at][1] : undefined, `get ${step[1]}`);
              same(ours.has(step[1]), at >= 0, `has ${step[1]}`);
              break;
            }
            case 'take':
              same(ours.takeOldest(), model.shift(), 'takeOldest');
              break;
            case 'drop':
              ours.dropOldest();
              model.shift();
              break;
            case 'list': {
              // A listing is what was there when asked: changes after it do not show in it.
              const entries = ours.entries();
              const keys = ours.keys();
              ours.set('late', 0);
              ours.delete('late');
              same([...entries], model, 'entries');
              same(
                [...keys],
                model.map(([k]) => k),
                'keys',
              );
              break;
            }
            case 'clear':
              ours.clear();
              model = [];
              break;
          }
          same(ours.size, model.length, 'size');
          same(ours.oldestKey(), model[0]?.[0], 'oldestKey');
          same(ours.oldest(), model[0], 'oldest');
        }
        same([...ours], model, 'every entry');
      }),
      { numRuns: 60 },
    );
  });

  it('should keep every key in its place when the queue is refilled up to and past the length compaction left', () => {
    for (const grown of [64, 65, 100, 129]) {
      for (let taken = grown - 12; taken <= grown; taken++) {
        const ours = new OldestFirst<number>();
        const model: string[] = [];
        let next = 0;
        const add = () => {
          ours.set(`k${next}`, next);
          model.push(`k${next++}`);
        };
        for (let i = 0; i < grown; i++) add();
        for (let i = 0; i < taken; i++) expect(ours.takeOldest()?.[0]).toBe(model.shift());
        // Compacted on the next set (few live keys, a long queue), then grown past the length the arrays kept.
        for (let i = 0; i < 2 * grown; i++) {
          add();
          if (
            ours.get(defined(model.at(-1), 'model.at(-1)')) !== next - 1 ||
            ours.oldestKey() !== model[0] ||
            ours.size !== model.length
          )
            throw new Error(`grown ${grown}, taken ${taken}: wrong after ${i + 1} sets`);
        }
        expect([...ours.keys()]).toEqual(model);
      }
    }
  });

  it('should find the oldest of a full bounded store without walking what was dropped', () => {
    const keys = new OldestFirst<number>();
    for (let i = 0; i < 10_000; i++) keys.set(`k${i}`, i);
    for (let i = 10_000; i < 60_000; i++) {
      keys.set(`k${i}`, i);
      keys.delete(defined(keys.oldest(), 'keys.oldest()')[0]);
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
