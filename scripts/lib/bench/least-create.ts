/**
 * The least a create with an Idempotency-Key must do, written inline on `node:http` with nothing around it: the
 * floor beside which `npm run bench` puts the mock's keyed create. Per request: the credential looked up, a
 * rate-limit count and its headers, the body read and parsed, validated (ajv, compiled once), the request's
 * fingerprint (one-shot sha256 of the method, path and canonical JSON, as the mock hashes it), the key claimed in a Map (a replay or a 422 when
 * held), the record made and kept, the answer kept for replays, the answer written. Nothing the mock adds is here:
 * no pipeline, no shared-store port, no all-or-nothing, no byte bounds, no control-plane steering, no SQL mirror.
 * Run by scripts/bench.ts: `node --require tsx/cjs scripts/lib/bench/least-create.ts` with PORT.
 */
import { hash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import Ajv2020 from 'ajv/dist/2020';
import { EXPOSED_HEADERS } from '../../../mocks/stages/cors';
import { IDEMPOTENCY_KEY_FIELD, RATE_LIMIT_HEADER_KEY as HEADER } from '../../../spec/lib/constants';

const validate = new Ajv2020().compile({
  type: 'object',
  properties: { name: { type: 'string', maxLength: 200 }, description: { type: ['string', 'null'] } },
  additionalProperties: false,
});
const workspaces = new Map([['Bearer mock-token-a', '0b1f1a8e-2c3d-4e5f-8a9b-0c1d2e3f4a5b']]);
const buckets = new Map<string, { window: number; count: number }>();
const keys = new Map<string, { fingerprint: string; text: string }>();
const servers = new Map<string, string>();
const canonical = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
};
const EXPOSE = EXPOSED_HEADERS.join(', ');

createServer((req, res) => {
  const workspace = workspaces.get(req.headers.authorization ?? '');
  if (!workspace) return res.writeHead(401).end();
  if (req.method === 'GET') return res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  const now = Date.now();
  const window = Math.floor(now / 60_000);
  let bucket = buckets.get(workspace);
  if (!bucket || bucket.window !== window) buckets.set(workspace, (bucket = { window, count: 0 }));
  bucket.count += 1;
  const remaining = String(1_000_000_000 - bucket.count);
  const reset = String(60 - Math.floor((now % 60_000) / 1000));
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const text0 = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    const body = JSON.parse(text0.toString()) as { name?: string; description?: string };
    if (!validate(body)) return res.writeHead(400).end();
    const at = `${workspace}:${String(req.headers[IDEMPOTENCY_KEY_FIELD])}`;
    const fingerprint = hash('sha256', `POST ${req.url}\n[]\n${canonical(body)}`, 'base64');
    const held = keys.get(at);
    if (held && held.fingerprint !== fingerprint) return res.writeHead(422).end();
    let text = held?.text;
    if (text === undefined) {
      const iso = new Date(now).toISOString();
      const uuid = randomUUID();
      const stored = JSON.stringify({
        uuid,
        workspaceUuid: workspace,
        userUuid: 'd7c4c7c1-9c17-4fd0-b3f1-3674d480ef6a',
        name: body.name ?? null,
        description: body.description ?? null,
        actions: [],
        resources: [],
        capabilities: [],
        folderUuid: null,
        templateSlug: null,
        isReadOnly: false,
        createdAt: iso,
        updatedAt: iso,
        deletedAt: null,
      });
      servers.set(uuid, stored);
      text = `{"mcpServer":${stored}}`;
      keys.set(at, { fingerprint, text });
      if (keys.size > 10_000) keys.delete(keys.keys().next().value as string);
      if (servers.size > 1_000) servers.delete(servers.keys().next().value as string);
    }
    res.writeHead(201, [
      ['content-type', 'application/json'],
      ['access-control-allow-origin', '*'],
      ['access-control-expose-headers', EXPOSE],
      [HEADER.rateLimit, `"workspace";r=${remaining};t=${reset}`],
      [HEADER.limit, '1000000000'],
      [HEADER.remaining, remaining],
      [HEADER.reset, reset],
      [HEADER.policy, '1000000000;w=60'],
      [HEADER.legacyLimit, '1000000000'],
      [HEADER.legacyRemaining, remaining],
      [HEADER.legacyReset, reset],
      ['content-length', String(Buffer.byteLength(text))],
    ]);
    res.end(text);
  });
}).listen(Number(process.env.PORT), '127.0.0.1');
