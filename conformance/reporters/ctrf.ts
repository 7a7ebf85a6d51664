/**
 * CTRF reporter (Common Test Report Format, https://ctrf.io): one test per check, beside JUnit for the tools that
 * read CTRF. A warned check is `passed` with its warnings under `extra`; a skipped one carries its reason.
 */
import { writeFileSync } from 'node:fs';
import { stringifyJson } from '../../spec/lib';
import { formatFailure } from './console';
import type { Reporter, RunEvent, RunSummary } from '../runner';

const STATUS = { passed: 'passed', warned: 'passed', failed: 'failed', skipped: 'skipped' } as const;

export function toCtrf(summary: RunSummary, stop = Date.now()): object {
  const count = (status: string) => summary.results.filter((r) => STATUS[r.status] === status).length;
  return {
    results: {
      tool: { name: 'conformance' },
      summary: {
        tests: summary.results.length,
        passed: count('passed'),
        failed: count('failed'),
        pending: 0,
        skipped: count('skipped'),
        other: 0,
        start: stop - summary.durationMs,
        stop,
      },
      tests: summary.results.map((r) => ({
        name: r.id,
        status: STATUS[r.status],
        duration: r.durationMs,
        suite: r.ruleId,
        ...(r.status === 'failed'
          ? { message: r.failures[0].title, trace: r.failures.map(formatFailure).join('\n\n') }
          : r.status === 'skipped'
            ? { message: r.skippedReason ?? '' }
            : {}),
        extra: {
          ruleId: r.ruleId,
          requests: r.requests,
          warnings: r.warnings.length,
          notes: r.notes,
          notJudged: r.unjudged ?? [],
        },
      })),
      environment: { appName: summary.target, extra: { seed: summary.seed, requests: summary.requests } },
    },
  };
}

export class CtrfReporter implements Reporter {
  constructor(private readonly file: string) {}

  onEvent(event: RunEvent): void {
    if (event.type === 'run-end' || event.type === 'snapshot')
      writeFileSync(this.file, `${stringifyJson(toCtrf(event.summary), 2)}\n`);
  }
}
