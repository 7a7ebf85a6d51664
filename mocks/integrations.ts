import type { RouteTable } from './stages/route/table';
import type { MockRequest, MockResponse } from './types';
import { ApiError } from './errors';
import type { QueryEngine } from './query';
import type { QuerySource } from './query/tables';
import type { StoragePort } from './store/port';

export type { QueryEngine } from './query';
/** What the OAuth server is made with (the core's `authServer` port hands these over). */
export type AuthServerOptions = {
  issuer: string;
  audience: string;
  basePath?: string;
  now: () => number;
  port: StoragePort;
  /** Replaces the default client's redirect URIs (MOCK_OAUTH_REDIRECT_URIS). */
  redirectUris?: string[];
};

export type AuthServer = {
  routes: RouteTable<(req: MockRequest) => Promise<MockResponse> | MockResponse>;
  verifyAccessToken(token: string): Promise<{ workspaceUuid: string; sub: string } | null>;
};

/** Loads a sibling module only if it is there, so the mock runs (and its tests pass) without it. */
function loadOptional<T>(name: string): T | undefined {
  try {
    require.resolve(name);
  } catch {
    return undefined;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- an optional module, loaded only when installed
  return require(name) as T;
}

/** The OAuth authorization server of mocks/oauth, when present. */
export function loadAuthServer(options: AuthServerOptions): AuthServer | undefined {
  type Defaults = { clients: { redirectUris: string[] }[] };
  const oauth = loadOptional<{ createAuthServer?: (o: unknown) => AuthServer; defaultAuthConfig?: Defaults }>(
    './oauth',
  );
  if (!oauth?.createAuthServer || !oauth.defaultAuthConfig) return undefined;
  const { redirectUris, ...rest } = options;
  const { clients } = oauth.defaultAuthConfig;
  return oauth.createAuthServer({
    ...oauth.defaultAuthConfig,
    clients: redirectUris ? clients.map((client) => ({ ...client, redirectUris })) : clients,
    ...rest,
  });
}

/** The SQL engine of mocks/query; without it executeQuery answers 500 in the error shape. */
export function loadQueryEngine(options: { source: QuerySource; now: () => number; timeoutMs: number }): QueryEngine {
  const query = loadOptional<{ createQueryEngine?: (o: unknown) => QueryEngine }>('./query');
  if (query?.createQueryEngine) return query.createQueryEngine(options);
  return {
    async query() {
      throw new ApiError(500, 'internal_error', 'The query engine is not available in this build of the mock.');
    },
    async select() {
      throw new ApiError(500, 'internal_error', 'The query engine is not available in this build of the mock.');
    },
    async close() {},
  };
}
