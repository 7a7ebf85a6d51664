/**
 * The mutation harness: runs the suite against every mutant of the independent server or the mock (each must make
 * one of its checks fail) and every correct variant (each must pass, at default settings and with --allow-writes,
 * over several seeds), and prints the mutation score and the false-alarm count.
 *
 *   npm run conformance:mutants                 # everything
 *   npm run conformance:mutants -- --sample 8   # a spread sample of mutants and one variant
 */
import { loadContract } from '../../spec/lib';
import { runAgainstIndependent } from '../independent/run-independent';
import { runAgainstFixture } from '../fixtures/run-fixture';
import type { RunSummary } from '../runner';
import { allChecks } from '../checks';
import { coverageMatrix, patternMatches } from '../matrix/matrix';
import {
  cellMutants,
  cellsOf,
  correctVariants,
  generatedMutants,
  HAND_WRITTEN,
  type Mutant,
  type Variant,
} from './catalogue';

export type MutantResult = { mutant: Mutant; killed: boolean; by: string[]; ms: number };
export type VariantResult = {
  variant: Variant;
  seed: number;
  allowWrites: boolean;
  passed: boolean;
  failures: string[];
  ms: number;
};
/** Per matrix cell: the judged stated cells, those some mutant breaks, and those whose every mutant survived. */
export type CellScore = {
  cells: number;
  withMutant: number;
  killed: number;
  survived: string[];
  withoutMutant: string[];
};

export type HarnessReport = {
  cells: CellScore;
  mutants: MutantResult[];
  variants: VariantResult[];
  equivalent: string[];
  score: number;
  falseAlarms: number;
};

const failuresOf = (summary: RunSummary) =>
  summary.results.flatMap((r) => r.failures.map((f) => `${r.id}: ${f.title}`));

export async function runMutant(mutant: Mutant, seed = 1): Promise<MutantResult> {
  const started = Date.now();
  const config = {
    only: mutant.checks,
    operations: mutant.operations,
    allowWrites: true,
    runs: 5,
    seed,
    ...mutant.config,
  };
  const summary = mutant.mock
    ? await runAgainstFixture({ name: mutant.id, description: mutant.breaks, options: mutant.mock }, config)
    : await runAgainstIndependent(mutant.options, config);
  const by = failuresOf(summary);
  return { mutant, killed: summary.exitCode === 1, by, ms: Date.now() - started };
}

export async function runVariant(variant: Variant, seed: number, allowWrites: boolean): Promise<VariantResult> {
  const started = Date.now();
  const summary = await runAgainstIndependent(
    { ...variant.options, runDurationMs: 300 },
    { allowWrites, runs: 5, seed },
  );
  return {
    variant,
    seed,
    allowWrites,
    passed: summary.exitCode === 0,
    failures: failuresOf(summary),
    ms: Date.now() - started,
  };
}

/** Which judged stated cells of the matrix the mutants that ran break, and which of those every mutant survived. */
export function scoreCells(
  contract: Parameters<typeof coverageMatrix>[0],
  results: MutantResult[],
  equivalent: string[] = [],
): CellScore {
  // A cell whose only breaking is an equivalent mutant (a malformed path id names nothing: 404) is not counted.
  const cells = coverageMatrix(contract, allChecks()).filter(
    (cell) =>
      cell.stated &&
      cell.judgedBy.length > 0 &&
      cell.reason === undefined &&
      !equivalent.some((key) => cell.id === `request-validation: ${key}`),
  );
  const breaking = (id: string) => results.filter((r) => cellsOf(r.mutant).some((p) => patternMatches(p, id)));
  const withMutant = cells.filter((cell) => breaking(cell.id).length > 0);
  const survived = withMutant.filter((cell) => !breaking(cell.id).some((r) => r.killed)).map((cell) => cell.id);
  return {
    cells: cells.length,
    withMutant: withMutant.length,
    killed: withMutant.length - survived.length,
    survived,
    withoutMutant: cells.filter((cell) => breaking(cell.id).length === 0).map((cell) => cell.id),
  };
}

/** Every n-th item, so a sample spreads over the whole catalogue. */
function spread<T>(items: T[], count: number): T[] {
  if (count >= items.length) return items;
  const step = items.length / count;
  return Array.from({ length: count }, (_, i) => items[Math.floor(i * step)]);
}

export async function runHarness(
  options: { sample?: number; seeds?: number[]; log?: (line: string) => void } = {},
): Promise<HarnessReport> {
  const log = options.log ?? (() => {});
  const contract = await loadContract();
  const generated = generatedMutants(contract);
  const perCell = cellMutants(contract);
  let mutants = [...generated.mutants, ...perCell, ...HAND_WRITTEN];
  let variants = correctVariants();
  const seeds = options.seeds ?? [1, 2, 3];
  if (options.sample !== undefined) {
    mutants = [
      ...spread(generated.mutants, Math.ceil(options.sample / 3)),
      ...spread(perCell, Math.ceil(options.sample / 3)),
      ...spread(HAND_WRITTEN, Math.floor(options.sample / 3)),
    ];
    variants = variants.slice(1, 2);
  }
  const results: MutantResult[] = [];
  for (const mutant of mutants) {
    const result = await runMutant(mutant);
    results.push(result);
    log(
      `${result.killed ? 'killed  ' : 'SURVIVED'} ${mutant.source.padEnd(12)} ${mutant.id}${result.killed ? ` — ${result.by[0]}` : ` (breaks ${mutant.breaks}; checks ${mutant.checks.join(', ')})`}`,
    );
  }
  // The independent server itself at every seed, default and --allow-writes; each other variant once each way.
  const plan: Array<[Variant, number, boolean]> = [];
  variants.forEach((variant, v) => {
    const ownSeeds = v === 0 ? seeds : [seeds[v % seeds.length]];
    for (const seed of ownSeeds)
      for (const allowWrites of [false, true])
        plan.push([variant, v === 0 ? seed : seed + (allowWrites ? 1 : 0), allowWrites]);
  });
  if (options.sample !== undefined) plan.splice(1);
  const variantResults: VariantResult[] = [];
  for (const [variant, seed, allowWrites] of plan) {
    const result = await runVariant(variant, seed, allowWrites);
    variantResults.push(result);
    log(
      `${result.passed ? 'passed  ' : 'FALSE ALARM'} correct      ${variant.id} (seed ${seed}${allowWrites ? ', --allow-writes' : ''})${result.passed ? '' : ` — ${result.failures.join('; ')}`}`,
    );
  }
  const killed = results.filter((r) => r.killed).length;
  return {
    cells: scoreCells(contract, results, generated.equivalent),
    mutants: results,
    variants: variantResults,
    equivalent: generated.equivalent,
    score: results.length === 0 ? 1 : killed / results.length,
    falseAlarms: variantResults.filter((v) => !v.passed).length,
  };
}

function summaryLines(report: HarnessReport): string[] {
  const killed = report.mutants.filter((r) => r.killed).length;
  const bySource = (source: Mutant['source']) => {
    const of = report.mutants.filter((r) => r.mutant.source === source);
    return `${of.filter((r) => r.killed).length}/${of.length}`;
  };
  const { cells } = report;
  return [
    '',
    `cells: ${cells.withMutant} of ${cells.cells} judged stated cells have a mutant; ${cells.killed} of them killed`,
    ...cells.survived.map((id) => `  SURVIVED cell ${id}`),
    ...(cells.withoutMutant.length > 0
      ? [`cells without a mutant (${cells.withoutMutant.length}):`, ...cells.withoutMutant.map((id) => `  ${id}`)]
      : []),
    `mutation score: ${(report.score * 100).toFixed(1)}% (${killed}/${report.mutants.length} killed; generated ${bySource('generated')}, hand-written ${bySource('hand-written')})`,
    `equivalent (not counted): ${report.equivalent.length} (a malformed path id without its rule names nothing and 404 answers, a named reading)`,
    `false alarms: ${report.falseAlarms} of ${report.variants.length} runs of correct variants`,
  ];
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const sampleAt = args.indexOf('--sample');
  const seedsAt = args.indexOf('--seeds');
  const started = Date.now();
  runHarness({
    sample: sampleAt >= 0 ? Number(args[sampleAt + 1]) : undefined,
    seeds: seedsAt >= 0 ? args[seedsAt + 1].split(',').map(Number) : undefined,
    log: (line) => process.stdout.write(`${line}\n`),
  }).then((report) => {
    for (const line of summaryLines(report)) process.stdout.write(`${line}\n`);
    process.stdout.write(`(${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
    process.exit(report.score === 1 && report.falseAlarms === 0 ? 0 : 1);
  });
}
