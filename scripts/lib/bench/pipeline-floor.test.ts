import type { Answer } from './bare-server';
import { freePort, launch, stop, waitFor200 } from './processes';

const LIST: Answer = {
  status: 200,
  headers: [
    ['content-type', 'application/json'],
    ['ratelimit-limit', '1000000000'],
  ],
  body: '{"count":0,"suppressions":[]}',
};
const CREATED: Answer = { status: 201, headers: [['content-type', 'application/json']], body: '{"mcpServer":{}}' };

/**
 * The floor the bench measures the mock against is only a floor if it answers what the mock answered, through
 * the mock's own listener and front door, its body read to the end. A floor that answered 404s, or refused its
 * bodies, would measure nothing and still print a ratio.
 */
describe("the mock's pipeline floor (npm run bench)", () => {
  let child: ReturnType<typeof launch> | undefined;
  let base = '';
  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}/v1`;
    const ANSWERS = JSON.stringify([
      ['GET /v1/mailboxManagement/suppressions', LIST],
      ['POST /v1/ai/mcpServers', CREATED],
    ]);
    child = launch(process.execPath, ['--require', 'tsx/cjs', 'scripts/lib/bench/pipeline-floor.ts'], {
      PORT: String(port),
      ANSWERS,
    });
    await waitFor200(`${base}/mailboxManagement/suppressions`, 'mock-token-a');
  }, 60_000);
  afterAll(async () => {
    if (child) await stop(child);
  });

  it("should answer each request with the mock's answer to it, through the mock's front door", async () => {
    const list = await fetch(`${base}/mailboxManagement/suppressions`);
    expect(list.status).toBe(200);
    expect(list.headers.get('ratelimit-limit')).toBe('1000000000');
    expect(await list.text()).toBe(LIST.body);
    // The front door still refuses what it refuses before any stage (a path that is not one).
    expect((await fetch(`${base}/mailboxManagement%2Fsuppressions`)).status).toBe(400);
  });

  it('should take a create with its body, one after another on a connection', async () => {
    for (const key of ['floor-1', 'floor-2']) {
      const created = await fetch(`${base}/ai/mcpServers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify({ name: 'x'.repeat(10_000) }),
      });
      expect(created.status).toBe(201);
      expect(await created.text()).toBe(CREATED.body);
    }
  });
});
