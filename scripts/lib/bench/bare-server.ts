/**
 * The benchmark's baseline: a bare node:http server that answers each workload's request with the mock's own
 * status, headers and body (read from the mock at start: `ANSWERS`, `[["GET /v1/…", {status, headers, body}]]`),
 * after reading the request's body like the mock does. Nothing else. Run as `node -e BARE_SERVER` with PORT,
 * ANSWERS and WORK_US (a busy loop that long per request: the work budget rows).
 */
export const BARE_SERVER = `
const answers = new Map(JSON.parse(process.env.ANSWERS));
const workMs = Number(process.env.WORK_US ?? 0) / 1000;
require('node:http').createServer((req, res) => {
  const answer = answers.get(req.method + ' ' + req.url);
  const send = () => {
    // WORK_US: a busy loop that long per request, the CPU a handler's own work would take (the work budget rows).
    if (workMs > 0) for (const until = performance.now() + workMs; performance.now() < until; );
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  };
  if (req.method === 'GET') return send();
  req.on('data', () => {});
  req.on('end', send);
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

/** What a server answered, replayed byte for byte by the bare server. */
export type Answer = { status: number; headers: [string, string][]; body: string };
