import type { ServerResponse } from 'node:http';
import type { Fault } from '../prefer';
import type { MockResponse } from '../types';

/**
 * Breaks the connection the way `fault` names, as WireMock's and Mockoon's faults do:
 * - reset: TCP RST, no bytes (ECONNRESET / "connection reset by peer");
 * - empty: the connection closes with no bytes at all (curl: "Empty reply from server");
 * - truncated: status, headers and the full Content-Length, then half the body and a reset;
 * - malformed-json: a complete answer whose body is not JSON (a cut-off body followed by an HTML fragment);
 * - hang: nothing is sent until `hangMs` has passed, then the connection is reset.
 */
export function writeFault(
  res: ServerResponse,
  response: MockResponse,
  fault: Fault,
  options: { hangMs: number },
): void {
  const socket = res.socket;
  const text = response.body === undefined ? '' : JSON.stringify(response.body);
  const headers = { ...response.headers } as Record<string, string | number>;
  delete headers['content-length'];
  switch (fault) {
    case 'reset':
      return void socket?.resetAndDestroy();
    case 'empty':
      return void socket?.end();
    case 'truncated': {
      const body = Buffer.from(text || '{}');
      res.writeHead(response.status, { ...headers, 'content-type': 'application/json', 'content-length': body.length });
      res.write(body.subarray(0, Math.floor(body.length / 2)), () => socket?.resetAndDestroy());
      return;
    }
    case 'malformed-json': {
      const body = `${text.slice(0, Math.ceil(text.length / 2))}<html><body>502 Bad Gateway</body></html>`;
      res.writeHead(response.status, {
        ...headers,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      });
      return void res.end(body);
    }
    case 'hang': {
      const timer = setTimeout(() => socket?.resetAndDestroy(), options.hangMs);
      timer.unref();
      socket?.once('close', () => clearTimeout(timer));
      return;
    }
  }
}
