/** The control plane's fixtures (all or nothing over HTTP) and its created listing (a page at a time). */
import { WORKSPACE_A, WORKSPACE_B } from '../config';
import { startCheckedMock } from '../testing/client';
import { createMockControl, type MockControl } from './client';

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

describe('control plane: fixtures all or nothing, created by pages', () => {
  let m: Checked;
  let control: MockControl;
  beforeAll(async () => {
    m = await startCheckedMock({ rateLimit: 100_000, adminToken: ADMIN });
    control = createMockControl({ url: m.mock.url, adminToken: ADMIN });
  });
  beforeEach(() => control.reset());
  afterAll(() => m.close());

  const postFixtures = (text: string) =>
    fetch(`${m.mock.origin}/__mock/fixtures`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-mock-admin-token': ADMIN },
      body: text,
    }).then(async (res) => ({ status: res.status, body: await res.json() }));

  it('should answer 400 and leave the first workspace as it was when the second is too deep to store', async () => {
    await control.loadFixtures({ workspaces: { [WORKSPACE_A]: { suppressions: [suppression('kept@example.com')] } } });
    const before = await m.call('GET', '/mailboxManagement/suppressions');
    // An item nested far deeper than any answer can be written (the text is built by hand: JSON.stringify cannot).
    const depth = 20_000;
    const deep = `${'{"a":'.repeat(depth)}{}${'}'.repeat(depth)}`;
    const replaced = JSON.stringify(suppression('replaced@example.com'));
    const item = `${replaced.slice(0, -1)},"deep":${deep}}`;
    const text = `{"workspaces":{"${WORKSPACE_A}":{"suppressions":[${replaced}]},"${WORKSPACE_B}":{"suppressions":[${item}]}}}`;
    const answer = await postFixtures(text);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ reason: expect.any(String), errorMessage: expect.any(String) });
    expect(await m.call('GET', '/mailboxManagement/suppressions')).toMatchObject({ status: 200, body: before.body });
  });

  it('should list what was created a page at a time, every entry once, and the client should follow the pages', async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await m.call('POST', '/orchestration/runs', { body: {} })).body.run.uuid);
    made.push((await m.call('POST', '/ai/mcpServers', { body: { name: 'Mine' } })).body.mcpServer.uuid);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const query = new URLSearchParams({ limit: '2', ...(cursor ? { cursor } : {}) });
      const page = await (
        await fetch(`${m.mock.origin}/__mock/created?${query}`, { headers: { authorization: 'Bearer mock-token-a' } })
      ).json();
      expect(page.count).toBe(6);
      expect(page.created.length).toBeLessThanOrEqual(2);
      seen.push(...page.created.map((entry: { uuid: string }) => entry.uuid));
      cursor = page.next;
      pages += 1;
    } while (cursor !== undefined);
    expect(pages).toBe(3);
    expect(seen.sort()).toEqual([...made].sort());
    expect((await control.created()).map((entry) => entry.uuid).sort()).toEqual([...made].sort());
  });

  it.each([
    ['limit=0', 'limit: must be an integer'],
    ['limit=10001', 'limit: must be an integer'],
    ['limit=ten', 'limit: must be an integer'],
    ['cursor=nothing', 'cursor: is not the `next`'],
  ])('should refuse %s with a 400 in the error shape', async (query, message) => {
    const res = await fetch(`${m.mock.origin}/__mock/created?${query}`, {
      headers: { authorization: 'Bearer mock-token-a' },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      reason: 'invalid_request',
      errorMessage: expect.stringContaining(message),
    });
  });
});
