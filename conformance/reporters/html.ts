/**
 * HTML reporter (`--html <file>`): one self-contained page (no script, no external resource) with the verdict, every
 * failure with its reproduction, every warning with the assumption or rule it rests on, the checks, and the coverage
 * matrix of operations × declared statuses × rules.
 */
import { writeFileSync } from 'node:fs';
import type { Check } from '../checks/registry';
import type { Failure } from '../lib/failure';
import type { Exchange } from '../lib/http-client';
import { escapeHtml, type Contract } from '../../spec/lib';
import type { Reporter, RunEvent, RunSummary } from '../runner';
import { unjudgedOf, type Unjudged } from '../run/types';
import { allChecks } from '../checks';
import { coverageFigures, runMatrix, type Cell } from '../matrix/matrix';
import { buildCoverage, type CellState, type Coverage } from './coverage';

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** Fields every failure has; any other text field (the description's words, an assumption) is shown as a quote. */
const KNOWN = new Set([
  'ruleId',
  'checkId',
  'title',
  'expected',
  'received',
  'severity',
  'request',
  'response',
  'reproduce',
  'seed',
  'path',
  'replay',
  'occurrences',
  'examples',
  'operations',
  'alsoBy',
  'cause',
]);

const QUOTE_LABEL: Record<string, string> = {
  stated: "the description's words",
  assumption: "the contract's reading (open in the description)",
};

function quotes(failure: Failure, ruleText: string | undefined): string {
  const extra = Object.entries(failure as Record<string, unknown>).filter(
    ([key, value]) => !KNOWN.has(key) && typeof value === 'string' && value.length > 0,
  );
  // The rule judged comes first, then the words (or the reading) this finding rests on.
  const items = ruleText
    ? [`<dt>rule ${escapeHtml(failure.ruleId)}</dt><dd><blockquote>${escapeHtml(ruleText)}</blockquote></dd>`]
    : [];
  items.push(
    ...extra.map(
      ([key, value]) =>
        `<dt>${escapeHtml(QUOTE_LABEL[key] ?? key)}</dt><dd><blockquote>${escapeHtml(value as string)}</blockquote></dd>`,
    ),
  );
  return items.length ? `<dl class="quotes">${items.join('')}</dl>` : '';
}

function message(failure: Failure): string {
  const headers = (h: Record<string, string>) =>
    Object.entries(h)
      .map(([n, v]) => `${n}: ${v}`)
      .join('\n');
  const operations = failure.operations ?? [];
  const seen = operations.length > 1 ? `<tr><th>Seen on</th><td>${escapeHtml(operations.join(', '))}</td></tr>` : '';
  const also = failure.alsoBy?.length
    ? `<tr><th>Also found by</th><td>${escapeHtml(failure.alsoBy.join(', '))}</td></tr>`
    : '';
  const parts = [
    `<table class="kv"><tr><th>Expected</th><td>${escapeHtml(failure.expected)}</td></tr><tr><th>Received</th><td>${escapeHtml(failure.received)}</td></tr>${seen}${also}</table>`,
  ];
  if (failure.request)
    parts.push(
      `<h4>Request</h4><pre>${escapeHtml(`${failure.request.method} ${failure.request.url}\n${headers(failure.request.headers)}${failure.request.body !== undefined ? `\n\n${show(failure.request.body)}` : ''}`)}</pre>`,
    );
  if (failure.response)
    parts.push(
      `<h4>Response</h4><pre>${escapeHtml(`${failure.response.status}\n${headers(failure.response.headers)}${failure.response.body !== undefined && failure.response.body !== '' ? `\n\n${show(failure.response.body)}` : ''}`)}</pre>`,
    );
  if (failure.examples?.length)
    parts.push(
      `<h4>Also seen</h4><ul>${failure.examples.map((e) => `<li><code>${escapeHtml(e.request)}</code>${e.status !== undefined ? ` → ${e.status}` : ''}${e.title ? ` — ${escapeHtml(e.title)}` : ''}</li>`).join('')}</ul>`,
    );
  if (failure.reproduce)
    parts.push(
      `<h4>Reproduce with${failure.reproduce.includes('\n') ? ' (in order)' : ''}</h4><pre class="cmd">${escapeHtml(failure.reproduce)}</pre>`,
    );
  if (failure.replay)
    parts.push(
      `<h4>Replay with</h4><pre class="cmd">${escapeHtml(failure.replay)}</pre><p class="muted">seed ${failure.seed}, path ${escapeHtml(failure.path ?? '')}</p>`,
    );
  return parts.join('\n');
}

function finding(failure: Failure, ruleText: string | undefined): string {
  const count =
    failure.occurrences && failure.occurrences > 1 ? ` <span class="count">seen ${failure.occurrences}×</span>` : '';
  return `<details class="finding ${failure.severity}"${failure.severity === 'failure' ? ' open' : ''}><summary><span class="rule">${escapeHtml(failure.ruleId)}</span> ${escapeHtml(failure.title)}${count}<span class="muted"> — ${escapeHtml(failure.checkId)}</span></summary>${quotes(failure, ruleText)}${message(failure)}</details>`;
}

const MARK: Record<CellState, string> = { passed: '✓', warned: '!', failed: '✗', 'not reached': '·', 'not run': '' };

function coverageTables(coverage: Coverage): string {
  const statusTable = `<table class="matrix"><thead><tr><th>operation</th><th>declared statuses (responses seen)</th><th>undeclared</th></tr></thead><tbody>${coverage.rows
    .map(
      (row) =>
        `<tr><th><code>${escapeHtml(row.method)} ${escapeHtml(row.path)}</code><br><span class="muted">${escapeHtml(row.operationId)}</span></th><td>${row.statuses
          .map(
            (s) =>
              `<span class="cell ${s.state.replace(' ', '-')}" title="${s.state}">${escapeHtml(s.status)}${s.seen ? ` ×${s.seen}` : ''}</span>`,
          )
          .join(
            ' ',
          )}</td><td>${row.undeclared.map((u) => `<span class="cell failed">${u.status} ×${u.seen}</span>`).join(' ')}</td></tr>`,
    )
    .join('')}</tbody></table>`;
  const rules = coverage.rules;
  const ruleTable = `<table class="matrix rules"><thead><tr><th>operation</th>${rules.map((r) => `<th class="vertical" title="${escapeHtml(r.text)}"><span>${escapeHtml(r.id)}</span></th>`).join('')}</tr></thead><tbody>${coverage.rows
    .map(
      (row) =>
        `<tr><th>${escapeHtml(row.operationId)}</th>${rules.map((r) => `<td class="cell ${row.rules[r.id].replace(' ', '-')}" title="${escapeHtml(`${r.id}: ${row.rules[r.id]}`)}">${MARK[row.rules[r.id]]}</td>`).join('')}</tr>`,
    )
    .join('')}</tbody></table>`;
  return `<h2 id="coverage">Coverage</h2>
<p class="legend"><span class="cell passed">✓ passed</span> <span class="cell warned">! warned</span> <span class="cell failed">✗ failed</span> <span class="cell not-reached">· not reached</span> <span class="cell not-run">not run (no selected check verifies it)</span></p>
<h3>Operations × declared statuses</h3>${statusTable}
<h3>Operations × rules</h3>${ruleTable}
<h3>Rules</h3><table class="kv">${rules.map((r) => `<tr><th>${escapeHtml(r.id)}</th><td>${escapeHtml(r.text)}<br><span class="muted">${r.checks.length ? escapeHtml(r.checks.join(', ')) : 'no check'}</span></td></tr>`).join('')}</table>`;
}

/** The coverage matrix derived from the contract: each cell of each rule with the check that judged it or why none did. */
function matrixSection(cells: Cell[]): string {
  const figures = coverageFigures(cells);
  const rules = [...new Set(cells.map((cell) => cell.rule))];
  const rows = rules
    .map((rule) => {
      const own = cells.filter((cell) => cell.rule === rule);
      return `<tr><th colspan="3" class="rule">${escapeHtml(rule)}</th></tr>${own
        .map((cell) => {
          const state = cell.reason !== undefined ? 'not-reached' : cell.judgedBy.length > 0 ? 'passed' : 'failed';
          const by =
            cell.reason ?? (cell.judgedBy.length > 0 ? cell.judgedBy.join(', ') : 'no check judges this stated cell');
          return `<tr><td>${escapeHtml(cell.dimension)}</td><td class="cell ${state}">${escapeHtml(cell.subject)}${cell.stated ? '' : ' <span class="muted">(assumed)</span>'}</td><td>${escapeHtml(by)}</td></tr>`;
        })
        .join('')}`;
    })
    .join('');
  return `<h2 id="matrix">Coverage matrix (derived from the contract)</h2>
<p>${figures.judged} of ${figures.stated} stated cells judged by this run (${figures.percent.toFixed(1)} %); ${cells.length - figures.stated} cells rest on assumptions (judged with warnings at most). <span class="cell passed">judged</span> <span class="cell not-reached">not judged, with the reason</span> <span class="cell failed">stated, no check</span></p>
<table class="matrix"><thead><tr><th>dimension</th><th>cell</th><th>judged by, or why not</th></tr></thead><tbody>${rows}</tbody></table>`;
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}main{max-width:1200px;margin:0 auto;padding:24px}
header.verdict{padding:20px 24px;color:#fff}header.pass{background:#1f7a44}header.fail{background:#b3261e}header h1{margin:0 0 4px;font-size:26px}
.stats{display:flex;gap:24px;flex-wrap:wrap;margin-top:8px}.stats b{font-size:18px;display:block}
table{border-collapse:collapse;background:#fff;margin:8px 0 16px}th,td{border:1px solid #dde1e6;padding:4px 8px;text-align:left;vertical-align:top}
pre{background:#1d2330;color:#e8ecf1;padding:10px;overflow:auto;white-space:pre-wrap;word-break:break-all;margin:4px 0}
details.finding{background:#fff;border-left:4px solid #b3261e;margin:10px 0;padding:8px 12px}details.warning{border-left-color:#c77700}
summary{cursor:pointer;font-weight:600}.rule{font-family:monospace;background:#eef0f3;padding:1px 6px;border-radius:3px}.count{background:#b3261e;color:#fff;border-radius:9px;padding:0 7px;font-size:12px}
.muted{color:#687385;font-weight:400}blockquote{margin:0;padding:4px 10px;border-left:3px solid #c77700;background:#fff8eb}dl.quotes dt{font-weight:600;margin-top:6px}dl.quotes dd{margin:2px 0 0}
.cell{display:inline-block;padding:1px 6px;border-radius:3px;font-family:monospace}td.cell{display:table-cell;text-align:center;border-radius:0}
.passed{background:#d7f0df}.warned{background:#ffe7b3}.failed{background:#f7c6c2}.not-reached{background:#eceff3;color:#687385}.not-run{background:#fff}
th.vertical{height:170px;white-space:nowrap;vertical-align:bottom;padding:4px 2px}th.vertical span{writing-mode:vertical-rl;transform:rotate(180deg);font-family:monospace;font-size:12px}
.status-PASS{color:#1f7a44;font-weight:700}.status-FAIL{color:#b3261e;font-weight:700}.status-WARN{color:#c77700;font-weight:700}.status-SKIP{color:#687385;font-weight:700}`;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Every stated rule the run could not judge, with how to judge it. */
function unjudgedSection(unjudged: Unjudged[]): string {
  if (unjudged.length === 0) return '';
  return `<h2 id="not-judged">Not judged in this run (${unjudged.length})</h2><table><thead><tr><th>rule</th><th>check</th><th>what</th><th>how to judge it</th></tr></thead><tbody>${unjudged
    .map(
      (u) =>
        `<tr><td>${escapeHtml(u.ruleId)}</td><td><code>${escapeHtml(u.checkId)}</code></td><td>${escapeHtml(u.what)}</td><td>${escapeHtml(u.how)}</td></tr>`,
    )
    .join('')}</tbody></table>`;
}

export type HtmlInput = {
  summary: RunSummary;
  contract?: Contract;
  checks: Check[];
  exchanges: Exchange[];
  specPath: string;
};

export function toHtml({ summary, contract, checks, exchanges, specPath }: HtmlInput): string {
  const failures = summary.results.flatMap((r) => r.failures);
  const warnings = summary.results.flatMap((r) => r.warnings);
  const ruleText = (id: string) => contract?.rules.find((r) => r.id === id)?.text;
  const count = (status: string) => summary.results.filter((r) => r.status === status).length;
  const passed = summary.exitCode === 0;
  const mark = { passed: 'PASS', failed: 'FAIL', warned: 'WARN', skipped: 'SKIP' } as const;
  const checkRows = summary.results
    .map(
      (r) =>
        `<tr><td><code>${escapeHtml(r.id)}</code></td><td>${escapeHtml(r.ruleId)}</td><td class="status-${mark[r.status]}">${mark[r.status]}</td><td>${r.failures.length}</td><td>${r.warnings.length}</td><td>${r.requests}</td><td>${(r.durationMs / 1000).toFixed(1)} s</td><td>${escapeHtml([r.skippedReason, ...r.notes].filter(Boolean).join('; '))}</td></tr>`,
    )
    .join('');
  const coverage = contract
    ? coverageTables(buildCoverage(contract, summary.target, summary.operations, checks, summary.results, exchanges)) +
      matrixSection(runMatrix(contract, allChecks(), summary))
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Conformance ${passed ? 'passed' : 'failed'} — ${escapeHtml(summary.target)}</title><style>${STYLE}</style></head>
<body><header class="verdict ${passed ? 'pass' : 'fail'}"><h1 id="verdict">${passed ? 'PASSED' : 'FAILED'}: ${plural(count('failed'), 'check')} failed (${plural(failures.length, 'failure')}), ${plural(count('warned'), 'check')} warned (${plural(warnings.length, 'warning')})</h1>
<div>${escapeHtml(summary.target)} against ${escapeHtml(specPath)}</div>
<div class="stats"><span><b>${count('passed')}</b>passed</span><span><b>${count('failed')}</b>failed</span><span><b>${count('warned')}</b>warned</span><span><b>${count('skipped')}</b>skipped</span><span><b>${summary.requests}</b>requests</span><span><b>${(summary.durationMs / 1000).toFixed(1)} s</b>wall time</span><span><b>${summary.seed}</b>seed</span>${summary.workers ? `<span><b>${summary.workers}</b>workers</span>` : ''}${summary.shard ? `<span><b>${escapeHtml(summary.shard)}</b>shard</span>` : ''}</div></header>
<main>
<h2 id="failures">Failures (${failures.length})</h2>${failures.length ? failures.map((f) => finding(f, ruleText(f.ruleId))).join('\n') : '<p>None.</p>'}
<h2 id="warnings">Warnings (${warnings.length})</h2><p class="muted">Where the contract leaves a point open or disagrees with an RFC, the suite accepts the other reading and says so here.</p>${warnings.length ? warnings.map((w) => finding(w, ruleText(w.ruleId))).join('\n') : '<p>None.</p>'}
${unjudgedSection(unjudgedOf(summary.results))}
<h2 id="checks">Checks</h2><table><thead><tr><th>check</th><th>rule</th><th>result</th><th>failed</th><th>warned</th><th>requests</th><th>time</th><th>notes</th></tr></thead><tbody>${checkRows}</tbody></table>
${coverage}${summary.undescribed?.length ? `<h2 id="undescribed">Endpoints the contract does not describe</h2><table><tbody>${summary.undescribed.map((u) => `<tr><td><code>${escapeHtml(u.endpoint)}</code></td><td>×${u.seen}</td></tr>`).join('')}</tbody></table>` : ''}
</main></body></html>
`;
}

export class HtmlReporter implements Reporter {
  private readonly exchanges: Exchange[] = [];
  private checks: Check[] = [];
  private contract?: Contract;
  private specPath = '';

  constructor(private readonly file: string) {}

  onEvent(event: RunEvent): void {
    if (event.type === 'run-start') {
      this.checks = event.checks;
      this.contract = event.contract;
      this.specPath = event.specPath;
    }
    if (event.type === 'exchange') this.exchanges.push(event.exchange);
    if (event.type === 'run-end' || event.type === 'snapshot')
      writeFileSync(
        this.file,
        toHtml({
          summary: event.summary,
          contract: this.contract,
          checks: this.checks,
          exchanges: this.exchanges,
          specPath: this.specPath,
        }),
      );
  }
}
