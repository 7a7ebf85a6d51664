import { connect } from 'node:net';
import { safeDict } from '../safety/dict';

// `any`: tests read the answer's JSON by its paths, whatever it is (hostile requests get answers of any shape,
// which the tests then assert on); a typed body would be a cast in every test instead.
export type RawAnswer = { status: number; headers: Record<string, string>; body: any; elapsedMs: number };

/**
 * Sends bytes as they are over a socket (requests fetch refuses to make: lying Content-Length, stalled bodies,
 * malformed HTTP) and reads the first answer. `keepOpen` leaves the request unfinished.
 */
export function sendRaw(
  url: string,
  request: string | Buffer,
  options: { timeoutMs?: number } = {},
): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${options.timeoutMs ?? 5000} ms`));
    }, options.timeoutMs ?? 5000);
    const done = () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = safeDict<string>();
      for (const line of lines) {
        const at = line.indexOf(':');
        if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
      }
      const bodyText = rest.join('\r\n\r\n');
      let body: unknown = bodyText;
      try {
        body = bodyText ? JSON.parse(bodyText) : undefined;
      } catch {
        // not JSON: kept as text for the assertion to show
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body, elapsedMs: Date.now() - started });
    };
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = /content-length: *(\d+)/i.exec(text.slice(0, end));
      if (length && Buffer.byteLength(text) - end - 4 >= Number(length[1])) {
        socket.destroy();
        done();
      }
    });
    socket.on('end', done);
    socket.on('error', () => (chunks.length > 0 ? done() : reject(new Error('connection failed'))));
    socket.write(request);
  });
}
