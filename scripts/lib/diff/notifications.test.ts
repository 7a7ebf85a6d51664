// Webhooks and callbacks in a whole report: named as notifications, located on their file and line, with their
// client types, their own headline, and each change once (the cross-check adds none). (issue 36, item 1)

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import YAML from 'yaml';
import { documentsOf, loadCases } from './fixture-cases';
import { renderMarkdown } from './render-markdown';
import { groupRows } from './rows';
import { type DiffReport, runDiff } from './run-diff';

const NOW = new Date('2026-11-21T00:00:00Z');

/** The report of a fixture case written as two YAML files (so it has lines). */
async function reportOf(
  id: string,
  crossCheck = false,
): Promise<{ report: DiffReport; head: string[]; base: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'spec-diff-notifications-'));
  try {
    const { base, head } = documentsOf(loadCases().find((c) => c.id === id)!);
    writeFileSync(join(dir, 'base.yaml'), YAML.stringify(base, { aliasDuplicateObjects: false }));
    writeFileSync(join(dir, 'head.yaml'), YAML.stringify(head, { aliasDuplicateObjects: false }));
    const report = await runDiff({
      base: join(dir, 'base.yaml'),
      head: join(dir, 'head.yaml'),
      cwd: dir,
      now: NOW,
      crossCheck,
      impact: true,
    });
    const lines = (side: string) => readFileSync(join(dir, side), 'utf8').split('\n');
    return { report, head: lines('head.yaml'), base: lines('base.yaml') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('a webhook payload field removed', () => {
  it('should fail as a change to a notification, on its line, with its client type, once', async () => {
    const { report, base, head } = await reportOf('webhook/payload-field-removed', true);
    expect(report.exitCode).toBe(1);
    const breaking = report.changes.filter((c) => c.classification === 'breaking');
    expect(breaking).toEqual([
      expect.objectContaining({
        rule: 'response-field-removed',
        operation: 'webhook thingChanged (POST)',
        channel: 'webhook',
        location: 'payload application/json › note',
        detail: 'payload field `note` removed',
        reason: 'subscribers reading this field break',
      }),
    ]);
    const source = breaking[0].source!;
    expect(source.file).toBe('head.yaml');
    expect(head[source.line! - 1]).toMatch(/^\s+properties:/);
    expect(base.join('\n')).toContain('note:');
    expect(breaking[0].impact?.clientTypes).toEqual(['webhooks["thingChanged"]']);
    // The cross-check's own findings never repeat one of ours, nor enter the changes.
    expect(report.changes.filter((c) => c.rule.startsWith('redocly/'))).toEqual([]);
    expect(groupRows(report.changes)).toHaveLength(report.changes.length);
    const markdown = renderMarkdown(report);
    expect(markdown).toMatch(/^❌ \*\*1 breaking change\\\(s\\\) to webhooks or callbacks the API sends\\\. /m);
    expect(markdown).toContain('`webhook thingChanged (POST)`');
    expect(markdown).not.toContain('(document)');
  }, 30_000);
});

describe('a callback answer field made required', () => {
  it('should fail as a change to the callback of its operation, typed in that operation', async () => {
    const { report, head } = await reportOf('callback/answer-field-added-required');
    const [change] = report.failing;
    expect(change).toEqual(
      expect.objectContaining({
        rule: 'request-field-added-required',
        operation: 'callback onThingChanged {$request.query.callbackUrl} (POST) of GET /things/{uuid}',
        channel: 'callback',
        parentOperation: 'GET /things/{uuid}',
        detail: 'required answer field `received` added',
      }),
    );
    expect(head[change.source!.line! - 1]).toMatch(/received:/);
    expect(change.impact?.clientTypes).toEqual(['operations["getThing"]']);
  });
});
