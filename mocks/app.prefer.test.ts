/** Prefer answers that hold together: a 202 whose run exists, generated bodies that parse like real ones. */
import { startCheckedMock } from './testing/client';
import { loadContract } from '../spec/lib';

type Checked = Awaited<ReturnType<typeof startCheckedMock>>;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('Prefer answers over HTTP', () => {
  let m: Checked;
  beforeAll(async () => {
    m = await startCheckedMock({ rateLimit: 100_000 });
  });
  afterAll(() => m.close());

  it.each([
    ['runs', 'run'],
    ['batches', 'batch'],
  ])(
    'should answer Prefer: code=202 on a create of %s with one that exists behind its Location',
    async (kind, field) => {
      const workflowUuid = '3f2b8c1e-9d4a-4b7e-8c2d-1a5f6e7d8c9b';
      const created = await m.call('POST', `/orchestration/${kind}`, {
        body: { workflowUuid },
        headers: { prefer: 'code=202' },
      });
      expect(created.status).toBe(202);
      expect(created.body[field].workflowUuid).toBe(workflowUuid);
      const polled = await fetch(created.headers.location, { headers: { authorization: 'Bearer mock-token-a' } });
      expect(polled.status).toBe(200);
      expect((await polled.json())[field].uuid).toBe(created.body[field].uuid);
    },
  );

  it('should refuse an example the named code does not have with 400 in the error shape, on every read and every code it declares', async () => {
    // Prism's negotiator fails without a status when the example is not among that code's: it was a 500.
    const reads = loadContract().operations.filter((operation) => operation.method === 'GET');
    expect(reads.length).toBeGreaterThanOrEqual(7);
    for (const operation of reads) {
      const path = operation.path.replace(/\{[^}]+\}/g, '3f2b8c1e-9d4a-4b7e-8c2d-1a5f6e7d8c9b');
      for (const code of Object.keys(operation.responses).filter((status) => /^\d{3}$/.test(status))) {
        const answer = await m.call('GET', path, { headers: { prefer: `code=${code}, example=no-such-example` } });
        expect([operation.operationId, code, answer.status, answer.body?.reason]).toEqual([
          operation.operationId,
          code,
          400,
          'mock_preference_unsatisfiable',
        ]);
      }
    }
  });

  it('should still answer a declared error status from the spec', async () => {
    expect((await m.call('POST', '/orchestration/runs', { body: {}, headers: { prefer: 'code=409' } })).status).toBe(
      409,
    );
  });

  it('should generate timestamps, uuids and emails that parse, and a count no smaller than the page', async () => {
    const list = await m.call('GET', '/mailboxManagement/suppressions', { headers: { prefer: 'dynamic=true' } });
    expect(list.status).toBe(200);
    expect(list.body.count).toBeGreaterThanOrEqual(list.body.suppressions.length);
    expect(list.body.count).toBeLessThanOrEqual(list.body.suppressions.length + 1000);
    for (const s of list.body.suppressions) {
      expect(s.uuid).toMatch(UUID);
      expect(s.email).toMatch(/^[^@\s]+@[^@\s]+\.[a-z]+$/);
      expect(Number.isNaN(Date.parse(s.createdAt))).toBe(false);
    }
    const workflow = await m.call('GET', '/orchestration/workflows/3f2b8c1e-9d4a-4b7e-8c2d-1a5f6e7d8c9b', {
      headers: { prefer: 'dynamic=true' },
    });
    const { createdAt, uuid } = workflow.body.workflow;
    if (createdAt !== null && createdAt !== undefined) expect(Number.isNaN(Date.parse(createdAt))).toBe(false);
    if (typeof uuid === 'string') expect(uuid).toMatch(UUID);
  });

  it('should expose Allow to browsers with the 405 that carries it', async () => {
    const res = await m.call('PATCH', '/mailboxManagement/suppressions');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBeDefined();
    expect(res.headers['access-control-expose-headers']).toMatch(/\bAllow\b/);
  });
});

describe('CORS preflight from a page elsewhere', () => {
  it('should allow a private-network request to the mock on loopback', async () => {
    const m = await startCheckedMock();
    try {
      const res = await fetch(`${m.mock.url}/mailboxManagement/suppressions`, {
        method: 'OPTIONS',
        headers: {
          origin: 'null',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization,prefer',
          'access-control-request-private-network': 'true',
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-private-network')).toBe('true');
      expect(res.headers.get('access-control-allow-headers')).toBe('authorization,prefer');
    } finally {
      await m.close();
    }
  });
});
