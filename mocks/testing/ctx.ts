import type { Ctx, Next } from '../context';
import type { MockResponse } from '../types';

/** A request context as the server builds it, for stage unit tests. */
export function makeCtx(
  init: {
    method?: string;
    path?: string;
    query?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    remoteAddress?: string;
  } = {},
): Ctx {
  const chunks = init.body === undefined ? [] : [typeof init.body === 'string' ? Buffer.from(init.body) : init.body];
  return {
    req: {
      method: init.method ?? 'GET',
      path: init.path ?? '/',
      query: new URLSearchParams(init.query ?? ''),
      headers: { ...init.headers },
      rawBody: Buffer.alloc(0),
    },
    source: {
      remoteAddress: init.remoteAddress ?? '127.0.0.1',
      body: (async function* () {
        yield* chunks;
      })(),
    },
    origin: 'http://127.0.0.1:4010',
  };
}

export const OK: MockResponse = { status: 200, headers: {}, body: { ok: true } };
/** A `next` that answers OK and counts its calls. */
export function okNext(): Next & { calls: number } {
  const next = (async () => {
    next.calls += 1;
    return { ...OK, headers: {} };
  }) as Next & { calls: number };
  next.calls = 0;
  return next;
}
