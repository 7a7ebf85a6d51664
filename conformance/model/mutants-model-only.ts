/**
 * What the model phase alone catches of the mutation harness's mutants: each mutant of the independent server
 * (hand-written, and generated from the contract, optionally a spread sample of them) is run with only the model
 * phase's check, and the killed ones are counted by rule. By hand:
 *
 *   npx tsx conformance/model/mutants-model-only.ts [--sample <n>] [--seed <n>]
 */
import { loadContract } from '../../spec/lib';
import { runAgainstIndependent } from '../independent/run-independent';
import { generatedMutants, HAND_WRITTEN, type Mutant } from '../mutants/catalogue';

const MODEL_CHECK = 'stated-rules-hold-across-command-sequences';

/** Every n-th item, so a sample spreads over the whole list. */
function spread<T>(items: T[], count: number | undefined): T[] {
  if (count === undefined || count >= items.length) return items;
  const step = items.length / count;
  return Array.from({ length: count }, (_, i) => items[Math.floor(i * step)]);
}

export async function modelOnly(mutants: Mutant[], seed: number, log: (line: string) => void): Promise<Mutant[]> {
  const killed: Mutant[] = [];
  for (const mutant of mutants) {
    const summary = await runAgainstIndependent(mutant.options, {
      only: [MODEL_CHECK],
      operations: mutant.operations,
      allowWrites: true,
      runs: 5,
      seed,
      ...mutant.config,
    });
    const failures = summary.results.flatMap((r) => r.failures);
    if (summary.exitCode === 1) killed.push(mutant);
    log(
      `${summary.exitCode === 1 ? 'killed  ' : 'survived'} ${mutant.id}${failures[0] ? ` — ${failures[0].title}` : ''}`,
    );
  }
  return killed;
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const option = (name: string) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : undefined);
  const sample = option('--sample');
  const seed = option('--seed') ?? 1;
  const log = (line: string) => process.stdout.write(`${line}\n`);
  void (async () => {
    const generated = generatedMutants(await loadContract()).mutants;
    const hand = await modelOnly(spread(HAND_WRITTEN, sample), seed, log);
    const gen = await modelOnly(spread(generated, sample), seed, log);
    log(`model phase alone: ${hand.length} of ${spread(HAND_WRITTEN, sample).length} hand-written mutants killed`);
    log(`model phase alone: ${gen.length} of ${spread(generated, sample).length} generated mutants killed`);
  })();
}
