import type { RunSummary } from '../runner';
import { formatSummaryTable } from './console';
import { toJunitXml } from './junit';

const summary: RunSummary = {
  target: 'http://127.0.0.1:4010/v1',
  seed: 1,
  requests: 3,
  durationMs: 1200,
  exitCode: 1,
  results: [
    {
      id: 'a-rule-holds',
      ruleId: 'rule-a',
      title: 't',
      fixture: 'f',
      status: 'passed',
      failures: [],
      warnings: [],
      notes: [],
      requests: 2,
      durationMs: 10,
    },
    {
      id: 'b-rule-holds',
      ruleId: 'rule-b',
      title: 't',
      fixture: 'f',
      status: 'failed',
      failures: [
        {
          ruleId: 'rule-b',
          checkId: 'b-rule-holds',
          title: 'Bad <thing>',
          expected: '1',
          received: '2',
          severity: 'failure',
        },
      ],
      warnings: [],
      notes: [],
      requests: 1,
      durationMs: 10,
    },
    {
      id: 'c-rule-holds',
      ruleId: 'rule-c',
      title: 't',
      fixture: 'f',
      status: 'skipped',
      skippedReason: 'needs --token-b',
      failures: [],
      warnings: [],
      notes: [],
      requests: 0,
      durationMs: 0,
    },
  ],
};

describe('toJunitXml', () => {
  it('should write one testcase per check with failures and skips escaped', () => {
    const xml = toJunitXml(summary);
    expect(xml).toContain('tests="3" failures="1" skipped="1"');
    expect(xml).toContain('<failure message="Bad &lt;thing&gt;" type="rule-b">');
    expect(xml).toContain('<skipped message="needs --token-b"/>');
  });
});

describe('formatSummaryTable', () => {
  it('should list check, rule, result and requests', () => {
    const table = formatSummaryTable(summary.results);
    expect(table.split('\n')[0]).toMatch(/^check\s+rule\s+result\s+failed\s+warned\s+requests$/);
    expect(table).toMatch(/b-rule-holds\s+rule-b\s+FAIL\s+1\s+0\s+1/);
  });
});
