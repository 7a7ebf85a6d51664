/**
 * Console reporter: a progress line per check, every failure with its reproduction, then a summary table.
 * Everything it writes passes `terminalSink` once: a target's bytes (bodies, headers, URLs, error messages) are shown
 * with their controls visible and never begin a CI workflow command.
 */
import { escapeTerminal } from '../../spec/lib';
import type { Failure } from '../lib/failure';
import type { CheckResult, Reporter, RunEvent } from '../runner';
import { unjudgedOf, type Unjudged } from '../run/types';

const MARK: Record<CheckResult['status'], string> = { passed: 'PASS', failed: 'FAIL', warned: 'WARN', skipped: 'SKIP' };

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => prefix + line)
    .join('\n');
}

/**
 * The one door to a terminal or a CI log: every control, escape and direction character shown as `\xNN`/`\uNNNN`,
 * no line left that a runner reads as a command (`::error`, `::add-mask::`, `##vso[`). The console reporter, the
 * command line and the passive proxy write through it.
 */
export function terminalSink(write: (text: string) => void): (text: string) => void {
  return (text) => write(escapeTerminal(text));
}

/** A field's later lines indented under its label, so text from a target never starts a line of its own. */
function continued(text: string, prefix = '            '): string {
  return text.replace(/\n/g, `\n${prefix}`);
}

function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

export function formatFailure(failure: Failure): string {
  const lines = [
    `${failure.severity === 'failure' ? 'FAILURE' : 'WARNING'} [${failure.ruleId}] ${failure.checkId}: ${continued(failure.title, '  ')}${failure.occurrences ? ` (seen ${failure.occurrences} times)` : ''}`,
    `  Expected: ${continued(failure.expected)}`,
    `  Received: ${continued(failure.received)}`,
  ];
  const operations = failure.operations ?? [];
  if (operations.length > 1) lines.push(`  Seen on:  ${operations.join(', ')}`);
  if (failure.alsoBy?.length) lines.push(`  Also found by: ${failure.alsoBy.join(', ')}`);
  if (failure.request) {
    lines.push(`  Request:  ${failure.request.method} ${continued(failure.request.url)}`);
    for (const [name, value] of Object.entries(failure.request.headers))
      lines.push(`            ${name}: ${continued(value)}`);
    if (failure.request.body !== undefined) lines.push(indent(show(failure.request.body), '            '));
  }
  if (failure.response) {
    lines.push(`  Response: ${failure.response.status}`);
    for (const [name, value] of Object.entries(failure.response.headers))
      lines.push(`            ${name}: ${continued(value)}`);
    if (failure.response.body !== undefined && failure.response.body !== '')
      lines.push(indent(show(failure.response.body), '            '));
  }
  for (const example of failure.examples ?? [])
    lines.push(
      `  Also seen: ${continued(example.request)}${example.status !== undefined ? ` → ${example.status}` : ''}${example.title ? ` (${continued(example.title)})` : ''}`,
    );
  if (failure.occurrences && failure.occurrences > 1 + (failure.examples?.length ?? 0))
    lines.push(`            … and ${failure.occurrences - 1 - (failure.examples?.length ?? 0)} more`);
  if (failure.seed !== undefined) lines.push(`  Seed: ${failure.seed}  Path: ${continued(failure.path ?? '')}`);
  if (failure.replay) lines.push(`  Replay with: ${continued(failure.replay)}`);
  if (failure.reproduce)
    lines.push(
      failure.reproduce.includes('\n') ? '  Reproduce with (in order):' : '  Reproduce with:',
      indent(failure.reproduce, '    '),
    );
  return lines.join('\n');
}

/** What the run could not judge, each with how to judge it: a green run never hides a rule it did not see. */
export function formatUnjudged(unjudged: Unjudged[]): string {
  return [
    `Not judged in this run (${unjudged.length}), and how to judge it:`,
    ...unjudged.map(
      (u) => `  [${u.ruleId}] ${u.checkId}: ${continued(u.what, '    ')}\n    → ${continued(u.how, '      ')}`,
    ),
  ].join('\n');
}

function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

export function formatSummaryTable(results: CheckResult[]): string {
  const header = ['check', 'rule', 'result', 'failed', 'warned', 'requests'];
  const rows = results.map((r) => [
    r.id,
    r.ruleId,
    MARK[r.status],
    String(r.failures.length),
    String(r.warnings.length),
    String(r.requests),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => pad(cell, widths[i])).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export class ConsoleReporter implements Reporter {
  private readonly write: (text: string) => void;

  constructor(
    write: (text: string) => void = (text) => process.stdout.write(text),
    /** Passive mode: each new finding is printed as it happens. */
    private readonly live = false,
  ) {
    this.write = terminalSink(write);
  }

  onEvent(event: RunEvent): void {
    switch (event.type) {
      case 'finding': {
        if (!this.live) break;
        const f = event.failure;
        this.write(
          `${f.severity === 'failure' ? 'FAILURE' : 'WARNING'} [${f.ruleId}] ${f.checkId}: ${continued(f.title, '  ')}\n  ${f.request ? `${f.request.method} ${continued(f.request.url, '  ')} → ${f.response?.status ?? 'no response'}\n  ` : ''}Expected: ${continued(f.expected)}\n  Received: ${continued(f.received)}\n`,
        );
        break;
      }
      case 'run-start':
        this.write(
          `Conformance of ${continued(event.target, '  ')} against ${continued(event.specPath, '  ')}\nSeed ${event.seed}; ${event.checks.length} checks\n\n`,
        );
        break;
      case 'check-start':
        if (!this.live) this.write(`  ... ${event.check.id} [${event.check.ruleId}]\n`);
        break;
      case 'check-end': {
        const r = event.result;
        const detail = r.skippedReason
          ? ` — ${continued(r.skippedReason, '       ')}`
          : r.failures.length || r.warnings.length
            ? ` — ${r.failures.length} failed, ${r.warnings.length} warned`
            : '';
        this.write(
          `  ${MARK[r.status]} ${r.id} [${r.ruleId}] ${r.requests} requests, ${(r.durationMs / 1000).toFixed(1)} s${detail}\n`,
        );
        for (const note of r.notes) this.write(`       ${continued(note, '       ')}\n`);
        break;
      }
      case 'run-end': {
        const { summary } = event;
        const all = summary.results.flatMap((r) => [...r.failures, ...r.warnings]);
        if (all.length > 0) this.write(`\n${all.map(formatFailure).join('\n\n')}\n`);
        const count = (status: CheckResult['status']) => summary.results.filter((r) => r.status === status).length;
        this.write(`\n${formatSummaryTable(summary.results)}\n\n`);
        const unjudged = unjudgedOf(summary.results);
        if (unjudged.length > 0) this.write(`${formatUnjudged(unjudged)}\n\n`);
        if (summary.undescribed?.length)
          this.write(
            `Endpoints in the traffic that the contract does not describe:\n${summary.undescribed.map((u) => `  ${continued(u.endpoint, '    ')} ×${u.seen}`).join('\n')}\n\n`,
          );
        this.write(
          `${count('passed')} passed, ${count('failed')} failed, ${count('warned')} warned, ${count('skipped')} skipped — ` +
            `${summary.requests} requests in ${(summary.durationMs / 1000).toFixed(1)} s (seed ${summary.seed})\n`,
        );
        break;
      }
    }
  }
}
