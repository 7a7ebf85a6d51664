/** The control plane over HTTP, driven through its typed client as a frontend test suite would. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WORKSPACE_A, WORKSPACE_B } from '../config';
import { startCheckedMock } from '../testing/client';
import { createMockControl, MockControlError, resetMock, type MockControl } from './client';
import { defined } from '../testing/defined';

type Checked = Awaited<ReturnType<typeof startCheckedMock>>;

const suppression = (email: string) => ({
  uuid: '3f2b8c1e-9d4a-4b7e-8c2d-1a5f6e7d8c9b',
  email,
  reason: 'manual' as const,
  mailboxUuid: null,
  messageUuid: null,
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
});

const ADMIN = 'admin-secret';

describe('control plane (/__mock)', () => {
  let clock = Date.UTC(2026, 5, 1, 12, 0, 0);
  let m: Checked;
  let control: MockControl;
  beforeAll(async () => {
    m = await startCheckedMock({ now: () => clock, runDurationMs: 1000, rateLimit: 100_000, adminToken: ADMIN });
    // The admin's client: these tests steer both workspaces and the defaults (tenancy.test.ts: a tenant's own).
    control = createMockControl({ url: m.mock.url, adminToken: ADMIN });
  });
  beforeEach(() => control.reset());
  afterAll(() => m.close());

  describe('reset and the created listing', () => {
    it('should list what clients created and forget it on reset, state back to the seed', async () => {
      const before = await m.call('GET', '/mailboxManagement/suppressions');
      const run = await m.call('POST', '/orchestration/runs', { body: {} });
      const server = await m.call('POST', '/ai/mcpServers', { body: { name: 'Mine' } });
      const domain = (await m.mock.store.list(WORKSPACE_A, 'domains'))[0].uuid as string;
      await m.call('DELETE', `/domainManagement/domains/${domain}`);
      expect((await control.created()).map((entry) => [entry.kind, entry.uuid])).toEqual(
        expect.arrayContaining([
          ['run', run.body.run.uuid],
          ['mcpServer', server.body.mcpServer.uuid],
        ]),
      );
      expect(await control.created('mock-token-b')).toEqual([]);

      await resetMock(undefined, { url: m.mock.origin, adminToken: ADMIN });
      expect(await control.created()).toEqual([]);
      expect((await m.call('GET', `/orchestration/runs/${run.body.run.uuid}`)).status).toBe(404);
      expect(
        defined(
          await m.mock.store.get(WORKSPACE_A, 'domains', domain),
          "(await m.mock.store.get(WORKSPACE_A, 'domains', domain))",
        ).status,
      ).toBe('pending');
      expect((await m.call('GET', '/mailboxManagement/suppressions')).body).toEqual(before.body);
    });

    it('should reset one workspace and leave the other as it is', async () => {
      const a = await m.call('POST', '/orchestration/runs', { body: {}, token: 'mock-token-a' });
      const b = await m.call('POST', '/orchestration/runs', { body: {}, token: 'mock-token-b' });
      await control.reset('mock-token-a');
      expect((await m.call('GET', `/orchestration/runs/${a.body.run.uuid}`, { token: 'mock-token-a' })).status).toBe(
        404,
      );
      expect((await m.call('GET', `/orchestration/runs/${b.body.run.uuid}`, { token: 'mock-token-b' })).status).toBe(
        200,
      );
      expect((await control.created(WORKSPACE_B)).map((entry) => entry.uuid)).toEqual([b.body.run.uuid]);
    });

    it('should forget idempotency keys on reset', async () => {
      const headers = { 'idempotency-key': 'k-1' };
      const first = await m.call('POST', '/orchestration/runs', { body: {}, headers });
      await control.reset();
      const again = await m.call('POST', '/orchestration/runs', { body: { recordId: 'other' }, headers });
      expect(again.status).toBe(202);
      expect(again.body.run.uuid).not.toBe(first.body.run.uuid);
    });

    it('should refuse an unknown workspace with a 400 in the error shape', async () => {
      await expect(control.reset('no-such-token')).rejects.toMatchObject({
        status: 400,
        body: { reason: 'unknown_workspace' },
      });
    });
  });

  describe('fixtures', () => {
    it('should replace a collection from JSON, filling the workspace uuid', async () => {
      const loaded = await control.loadFixtures({
        workspaces: { 'mock-token-a': { suppressions: [suppression('team@example.com')] } },
      });
      expect(loaded.loaded[WORKSPACE_A]).toEqual({ suppressions: 1 });
      const list = await m.call('GET', '/mailboxManagement/suppressions');
      expect(list.body).toEqual({
        count: 1,
        suppressions: [{ ...suppression('team@example.com'), workspaceUuid: WORKSPACE_A }],
      });
    });

    it('should read YAML, and keep runs at the status given', async () => {
      const uuid = 'a1b2c3d4-0000-4000-8000-000000000001';
      await control.loadFixtures(
        `workspaces:\n  ${WORKSPACE_B}:\n    runs:\n      - uuid: ${uuid}\n        status: running\n    recipes:\n      - name: Only one\n        uiType: ai\n        category: sales\n`,
      );
      clock += 10 * 60_000;
      expect((await m.call('GET', `/orchestration/runs/${uuid}`, { token: 'mock-token-b' })).body.run.status).toBe(
        'running',
      );
      const recipes = await m.call('GET', '/expression/recipes/list', {
        token: 'mock-token-b',
        query: 'uiTypes=ai&categories=sales',
      });
      expect(recipes.body.recipes.map((r: { name: string }) => r.name)).toEqual(['Only one']);
      expect(await control.created('mock-token-b')).toEqual([]);
    });

    it.each([
      [
        'a missing required field',
        { workspaces: { 'mock-token-a': { suppressions: [{ email: 'x@example.com' }] } } },
        '/workspaces/mock-token-a/suppressions/0/mailboxUuid: is required (schema Suppression)',
      ],
      [
        'a value outside an enum',
        { workspaces: { 'mock-token-a': { suppressions: [{ ...suppression('x@example.com'), reason: 'angry' }] } } },
        '/workspaces/mock-token-a/suppressions/0/reason: must be one of: "unsubscribed"',
      ],
      ['an unknown collection', { workspaces: { 'mock-token-a': { widgets: [] } } }, 'widgets: is not a collection'],
      ['an unknown workspace', { workspaces: { nobody: {} } }, '/workspaces/nobody: is neither a token'],
      [
        'another workspace in an item',
        {
          workspaces: {
            'mock-token-a': { suppressions: [{ ...suppression('x@example.com'), workspaceUuid: WORKSPACE_B }] },
          },
        },
        'loaded into workspace',
      ],
      ['no workspaces', { suppressions: [] }, 'expected an object with `workspaces'],
    ])('should refuse %s with a clear 400 and load nothing', async (_name, fixtures, want) => {
      const before = await m.call('GET', '/mailboxManagement/suppressions');
      const error = (await control.loadFixtures(fixtures as never).catch((e: unknown) => e)) as MockControlError;
      expect(error).toBeInstanceOf(MockControlError);
      expect(error.status).toBe(400);
      expect(error.body.reason).toBe('invalid_fixtures');
      expect(defined(error.body.problems, 'error.body.problems').join('\n')).toContain(want);
      expect((await m.call('GET', '/mailboxManagement/suppressions')).body).toEqual(before.body);
    });

    it('should list every missing field once, at its JSON pointer, and name rules instead of printing regexes', async () => {
      const fixtures = {
        workspaces: { 'mock-token-a': { suppressions: [{ email: 'x@example.com', mailboxUuid: 'not-a-uuid' }] } },
      };
      const error = (await control.loadFixtures(fixtures as never).catch((e: unknown) => e)) as MockControlError;
      const at = '/workspaces/mock-token-a/suppressions/0';
      expect(error.body.problems).toEqual([
        `${at}/reason: is required (schema Suppression)`,
        `${at}/messageUuid: is required (schema Suppression)`,
        `${at}/createdAt: is required (schema Suppression)`,
        `${at}/updatedAt: is required (schema Suppression)`,
        `${at}/mailboxUuid: must be a UUID (versions 1–8, variant 8, 9, a or b; or the nil or max UUID) or null (schema Suppression)`,
      ]);
    });

    it('should refuse text that is neither JSON nor YAML', async () => {
      await expect(control.loadFixtures('workspaces: [unclosed')).rejects.toMatchObject({
        status: 400,
        body: { reason: 'invalid_fixtures' },
      });
    });
  });

  describe('settings at run time', () => {
    it('should change the rate limit and restore it on reset', async () => {
      await control.updateSettings({ rateLimit: 2 });
      expect((await m.call('GET', '/mailboxManagement/suppressions')).headers['ratelimit-limit']).toBe('2');
      await m.call('GET', '/mailboxManagement/suppressions');
      expect((await m.call('GET', '/mailboxManagement/suppressions')).status).toBe(429);
      await control.reset();
      expect((await control.settings()).rateLimit).toBe(100_000);
      expect((await m.call('GET', '/mailboxManagement/suppressions')).status).toBe(200);
    });

    it('should change the run duration of runs created afterwards', async () => {
      await control.updateSettings({ runDurationMs: 60_000 });
      const run = await m.call('POST', '/orchestration/runs', { body: {} });
      clock += 30_000;
      expect((await m.call('GET', `/orchestration/runs/${run.body.run.uuid}`)).body.run.status).toBe('running');
      clock += 30_000;
      expect((await m.call('GET', `/orchestration/runs/${run.body.run.uuid}`)).body.run.status).toBe('success');
    });

    it.each([
      ['a negative latency', { latencyMs: -1 }, 'settings.latencyMs'],
      ['an unknown setting', { speed: 3 }, 'settings.speed: is not allowed'],
      ['an unknown outcome', { workspaces: { 'mock-token-a': { outcome: 'exploded' } } }, 'outcome'],
      [
        'a fault rule for an unknown operation',
        { faults: [{ operation: 'listWidgets', fault: 'reset' }] },
        'no operation "listWidgets"',
      ],
      ['a share above 1', { faults: [{ fault: 'reset', share: 2 }] }, 'share'],
    ])('should refuse %s and change nothing', async (_name, change, want) => {
      const before = await control.settings();
      const error = (await control.updateSettings(change as never).catch((e: unknown) => e)) as MockControlError;
      expect(error.status).toBe(400);
      expect(error.body.reason).toBe('invalid_settings');
      expect(defined(error.body.problems, 'error.body.problems').join('\n')).toContain(want);
      expect(await control.settings()).toEqual(before);
    });
  });

  describe('HTTP surface', () => {
    it('should list its endpoints, answer 404/405 in the error shape, and allow browsers (CORS)', async () => {
      const headers = { authorization: 'Bearer mock-token-a' };
      const index = await fetch(`${m.mock.origin}/__mock`, { headers });
      expect(Object.keys((await index.json()).endpoints)).toContain('POST /__mock/reset');
      const missing = await fetch(`${m.mock.origin}/__mock/nothing`, { headers });
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ reason: 'not_found' });
      const wrong = await fetch(`${m.mock.origin}/__mock/reset`, { method: 'GET', headers });
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get('allow')).toBe('POST');
      const preflight = await fetch(`${m.mock.origin}/__mock/reset`, {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    });

    it('should not be reachable under the API base path', async () => {
      expect((await m.call('POST', '/__mock/reset')).status).toBe(404);
    });
  });
});

describe('control plane with MOCK_ADMIN_TOKEN and MOCK_FIXTURES', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mock-fixtures-'));
  let m: Checked;
  afterAll(async () => {
    await m?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('should need the admin token, and load the fixtures at start and after each reset', async () => {
    const file = join(dir, 'fixtures.yaml');
    writeFileSync(
      file,
      `workspaces:\n  mock-token-a:\n    envVars:\n      - uuid: 5d0c8e1a-1111-4222-8333-444455556666\n`,
    );
    m = await startCheckedMock({ adminToken: 's3cret', fixturesPath: file });
    const variable = '/workspaceManagement/env-vars/5d0c8e1a-1111-4222-8333-444455556666';
    expect((await m.call('DELETE', variable)).status).toBe(200);
    await expect(createMockControl({ url: m.mock.origin }).reset()).rejects.toMatchObject({
      status: 401,
      body: { reason: 'unauthorized' },
    });
    await expect(createMockControl({ url: m.mock.origin, adminToken: 'wrong' }).reset()).rejects.toMatchObject({
      status: 401,
    });
    await createMockControl({ url: m.mock.origin, adminToken: 's3cret' }).reset();
    expect((await m.call('DELETE', variable)).status).toBe(200);
  });

  it('should refuse to start on fixtures that break the contract, naming the file and the field', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ workspaces: { 'mock-token-a': { domains: [{ priceCredits: 'many' }] } } }));
    await expect(startCheckedMock({ fixturesPath: file })).rejects.toThrow(
      /bad\.json.*\n.*\/domains\/0\/priceCredits: must be an integer or null/,
    );
  });
});
