import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AuthServer } from '../oauth';
import { serialise } from '../stages/serialise';

/**
 * Serves an auth server's endpoints on a bare node server, as the mock's front door serves them through its auth
 * mount; resolves false when the request is not one of them.
 */
export async function serveOAuth(
  auth: AuthServer,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<boolean> {
  const serve = auth.routes.get(url.pathname)?.get(req.method ?? 'GET');
  if (!serve) return false;
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, String(value)]));
  const request = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers };
  serialise(res, await serve({ ...request, rawBody: Buffer.concat(chunks) }), request.method);
  return true;
}

/** A loopback server for the auth server `current()` returns at each request (tests swap it between cases). */
export async function listenOAuth(current: () => AuthServer): Promise<{ server: Server; origin: string }> {
  let origin = '';
  const server = createServer((req, res) => {
    void serveOAuth(current(), req, res, new URL(req.url ?? '/', origin)).then((served) => {
      if (!served) res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { server, origin };
}
