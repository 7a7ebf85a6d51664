import { createRunRecord, createdRunRows } from './runs';
import { decodeEntry, decodeRow, decodeRun, encodeEntry, encodeRow, encodeRun } from './stored-form';

const WS = '0b1f1a8e-2c3d-4e5f-8a9b-0c1d2e3f4a5b';
const OTHER = '7c6d5e4f-3a2b-4c1d-9e8f-7a6b5c4d3e2f';
let serial = 0;
const uuid = () => `00000000-0000-4000-8000-${(++serial).toString(16).padStart(12, '0')}`;

describe('stored form of runs and rows', () => {
  const plain = createRunRecord({ uuid: uuid(), workspaceUuid: WS, createdAtMs: 1_700_000_000_000, durationMs: 500 });
  const linked = createRunRecord({
    uuid: uuid(),
    workspaceUuid: WS,
    createdAtMs: 1_700_000_000_001,
    durationMs: 500,
    workflowUuid: uuid(),
    recordId: 'record-1',
    isGroupParent: true,
    outcome: 'error',
    cancelRequestedAtMs: 1_700_000_000_100,
    fixedStatus: 'cancelled',
  });

  it('reads back every run as it was written, defaults, workspace and uuid included', () => {
    for (const run of [plain, linked]) expect(decodeRun(encodeRun(run, WS, run.uuid), WS, run.uuid)).toEqual(run);
    expect(decodeEntry('runs', encodeEntry('runs', linked, WS, linked.uuid), WS, linked.uuid)).toEqual(linked);
  });

  it('keeps only what differs from the defaults: a plain run is a fraction of its whole JSON', () => {
    const text = encodeRun(plain, WS, plain.uuid);
    expect(JSON.parse(text)).toEqual({ createdAtMs: plain.createdAtMs, durationMs: 500 });
    expect(text.length * 3).toBeLessThan(JSON.stringify(plain).length);
  });

  it('keeps a workspace other than the one it is kept in, and reads whole texts of older versions alike', () => {
    const foreign = { ...plain, workspaceUuid: OTHER };
    expect(decodeRun(encodeRun(foreign, WS, foreign.uuid), WS, foreign.uuid)).toEqual(foreign);
    expect(decodeRun(JSON.stringify(linked), WS, linked.uuid)).toEqual(linked);
    // A run kept under a field other than its uuid keeps its uuid in its text.
    const elsewhere = encodeRun(plain, WS, 'another-field');
    expect(decodeRun(elsewhere, WS, 'another-field')).toEqual(plain);
  });

  it('gives the same text for the same record (compare-and-set and removal by text rely on it)', () => {
    expect(encodeRun({ ...linked }, WS, linked.uuid)).toBe(encodeRun(linked, WS, linked.uuid));
    const { log, span } = createdRunRows(plain);
    for (const [row, table] of [
      [log, 'logs'],
      [span, 'spans'],
    ] as const) {
      expect(encodeRow({ ...row }, WS, table)).toBe(encodeRow(row, WS, table));
      expect(decodeRow(encodeRow(row, WS, table), WS, table)).toEqual(row);
      expect(encodeRow(row, WS, table)).not.toContain(WS);
    }
    expect(decodeEntry('mcpServers', encodeEntry('mcpServers', { uuid: 'x', name: null }, WS, 'x'), WS, 'x')).toEqual({
      uuid: 'x',
      name: null,
    });
  });

  it("leaves out what a created run's log and span rows say, keeps instants as milliseconds, and reads them back", () => {
    const { log, span } = createdRunRows(plain);
    const logText = encodeRow(log, WS, 'logs');
    const spanText = encodeRow(span, WS, 'spans');
    expect(JSON.parse(logText)).toEqual({ uuid: log.uuid, runUuid: plain.uuid, createdAtMs: plain.createdAtMs });
    expect(JSON.parse(spanText)).toEqual({ uuid: span.uuid, runUuid: plain.uuid, startedAtMs: plain.createdAtMs });
    expect(decodeRow(logText, WS, 'logs')).toEqual(log);
    expect(decodeRow(spanText, WS, 'spans')).toEqual(span);
  });

  it.each([
    ['logs', { level: 'error', message: 'run failed', createdAt: '2026-01-01T00:00:00Z' }],
    ['logs', { level: 'info', message: 'run created', createdAt: '+010000-01-01T00:00:00.000Z' }],
    ['logs', { level: null, message: '', createdAt: 1_700_000_000_000 }],
    ['logs', { level: 'info', message: 'run created', createdAt: 'yesterday', createdAtMs: 5 }],
    [
      'spans',
      {
        name: 'step',
        parentSpanUuid: 'p',
        startedAt: '2026-01-01T00:00:00.000Z',
        endedAt: '1970-01-01T00:00:00.000Z',
        durationMs: 0,
      },
    ],
    ['records', { id: 'r', title: 't', createdAt: '2026-01-01T00:00:00.123Z' }],
  ] as const)('reads back a %s row that differs from the defaults as it was: %j', (table, fields) => {
    const row = { uuid: uuid(), workspaceUuid: WS, runUuid: uuid(), ...fields };
    expect(decodeRow(encodeRow(row, WS, table), WS, table)).toEqual(row);
    expect(encodeRow({ ...row }, WS, table)).toBe(encodeRow(row, WS, table));
  });

  it('reads whole texts of older versions and rows of another workspace alike', () => {
    const { log, span } = createdRunRows(plain);
    expect(decodeRow(JSON.stringify(log), WS, 'logs')).toEqual(log);
    expect(decodeRow(JSON.stringify(span), WS, 'spans')).toEqual(span);
    const foreign = { ...span, workspaceUuid: OTHER };
    expect(decodeRow(encodeRow(foreign, WS, 'spans'), WS, 'spans')).toEqual(foreign);
  });
});
