/**
 * An arbitrary that mixes seed values (boundaries, schema examples) into a main arbitrary.
 *
 * fast-check asks for biased values with a frequency that is highest in the first runs (1 in 2 for runs 0-8, then
 * 1 in 3, 1 in 4...), so seeds ride on that bias: they come early and often, yet generation stays a pure function of
 * the random stream, which keeps `seed`/`path` replay exact.
 */
import fc from 'fast-check';

type SeededContext = { source: number; inner: unknown };

export class SeededArbitrary<T> extends fc.Arbitrary<T> {
  constructor(
    private readonly main: fc.Arbitrary<T>,
    private readonly seeds: fc.Arbitrary<T>[],
  ) {
    super();
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    if (biasFactor !== undefined && mrng.nextInt(1, biasFactor) === 1) {
      const source = mrng.nextInt(0, this.seeds.length - 1);
      const value = this.seeds[source].generate(mrng, biasFactor);
      return new fc.Value(value.value_, { source, inner: value.context } satisfies SeededContext);
    }
    const value = this.main.generate(mrng, biasFactor);
    return new fc.Value(value.value_, { source: -1, inner: value.context } satisfies SeededContext);
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return this.main.canShrinkWithoutContext(value);
  }

  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    const ctx = context as SeededContext | undefined;
    // A seed shrinks like any value of the main arbitrary, so a long boundary string can still shrink to a short one.
    if (ctx === undefined || ctx.source === -1 || this.main.canShrinkWithoutContext(value)) {
      const inner = ctx !== undefined && ctx.source === -1 ? ctx.inner : undefined;
      return this.main.shrink(value, inner).map((v) => new fc.Value(v.value_, { source: -1, inner: v.context }));
    }
    const source = ctx.source;
    return this.seeds[source].shrink(value, ctx.inner).map((v) => new fc.Value(v.value_, { source, inner: v.context }));
  }
}

export function withSeeds<T>(main: fc.Arbitrary<T>, seeds: fc.Arbitrary<T>[]): fc.Arbitrary<T> {
  return seeds.length === 0 ? main : new SeededArbitrary(main, seeds);
}
