import { ApiError } from '../../errors';
import { methodNotAllowed } from '.';

/** Exact paths → methods → what serves them: the routers of the small mounts (control plane, OAuth). */
export type RouteTable<T> = ReadonlyMap<string, ReadonlyMap<string, T>>;

/** What serves `method path`, or the 404 / 405 (with Allow) every mount answers the same way. */
export function findInTable<T>(table: RouteTable<T>, method: string, path: string, notFound: () => ApiError): T {
  const methods = table.get(path) ?? table.get(path.length > 1 ? path.replace(/\/$/, '') : path);
  if (!methods) throw notFound();
  const serve = methods.get(method === 'HEAD' && !methods.has('HEAD') ? 'GET' : method);
  if (serve === undefined) throw methodNotAllowed(method, path, [...methods.keys()]);
  return serve;
}
