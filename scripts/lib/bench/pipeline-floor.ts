/**
 * The mock's pipeline floor: its own Node listener, front door and stage list (`createMockApp`, as `npm start`
 * builds them), every stage passing the request on and the last answering what the mock answered to that
 * request (ANSWERS, as the bare server replays it). The body reader stays, so the body is read to its end as
 * every server of the bench reads it; with no operation routed it takes the bytes as an operation without a body
 * does: not decoded, and not refused when over the bound. So on the create the floor does a little less than the
 * least keyed create, which parses its body (about 2 µs in process).
 * What the mock's shape costs before any stage does its work: a target above this server's ratio cannot be met
 * by making the stages cheaper. Built with the pipeline's own `stageProbe` hook (the one `--stages` times the
 * stages with), so the floor is the mock's code, not a copy of it. Run by scripts/bench.ts with PORT and ANSWERS:
 * `node --require tsx/cjs scripts/lib/bench/pipeline-floor.ts`.
 */
import { createServer } from 'node:http';
import { createMockApp } from '../../../mocks/app';
import type { Stage } from '../../../mocks/context';
import type { MockResponse } from '../../../mocks/types';
import type { Answer } from './bare-server';

const port = Number(process.env.PORT);
/** Each request's answer by method and path under the base path, its headers as one object to copy. */
const answers = new Map(
  (JSON.parse(process.env.ANSWERS ?? '[]') as [string, Answer][]).map(([request, answer]) => [
    request.replace(' /v1/', ' /'),
    { status: answer.status, headers: Object.fromEntries(answer.headers), text: answer.body },
  ]),
);

/** The stage in its place: the body reader as it is (reading), the handler answering the mock's answer, the rest passing on. */
function floor(name: string, stage: Stage): Stage {
  if (name === 'read-body') return stage;
  if (name === 'handle')
    return (ctx): MockResponse => {
      const answer = answers.get(`${ctx.req.method} ${ctx.req.path}`);
      if (!answer) return { status: 404, headers: {}, body: undefined, text: '' };
      // A copy per answer: the serialiser sets the length on the headers it is given.
      return { status: answer.status, headers: { ...answer.headers }, body: undefined, text: answer.text };
    };
  return (ctx, next) => next();
}

async function main(): Promise<void> {
  const app = await createMockApp({ rateLimit: 1_000_000_000, stageProbe: floor }, () => `http://127.0.0.1:${port}`);
  const server = createServer({ requireHostHeader: false }, app.listener);
  server.keepAliveTimeout = 5_000;
  server.listen(port, '127.0.0.1');
}

void main();
