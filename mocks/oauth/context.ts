import type { GrantLimits, GrantStore, MockUser } from './grants';
import type { SigningKey } from './jwt';
import type { StoragePort } from '../store/port';

export type AuthClient = { clientId: string; redirectUris: string[] };

export type AuthServerOptions = {
  /** The auth_url, e.g. http://127.0.0.1:4010/auth; every endpoint lives under its path. */
  issuer: string;
  /** The API's base host address, e.g. http://127.0.0.1:4010: the `aud` of every token (see audienceForms). */
  audience: string;
  /** The API's base path (`/v1`): the base URL with it names the same API. */
  basePath?: string;
  /** Registered public clients (PKCE, no secret). */
  clients: AuthClient[];
  /** Mock users; the first is approved when the request names none (`login_hint`). */
  users: MockUser[];
  accessTokenTtlSeconds: number;
  /** Injected clock, ms. */
  now: () => number;
  /** Where codes, refresh tokens, revocations and the signing key live (default: this process's memory). */
  port?: StoragePort;
  /** Bounds of codes, grants, refresh tokens and revocations per client and per grant (default DEFAULT_GRANT_LIMITS). */
  grantLimits?: Partial<GrantLimits>;
};

export type AuthContext = {
  options: AuthServerOptions;
  issuer: string;
  /** The signing key, read from (or first written to) the store on first use. */
  key: () => Promise<SigningKey>;
  grants: GrantStore;
  endpoints: { authorization: string; token: string; revocation: string; jwks: string; userinfo: string };
};

/** @see https://www.rfc-editor.org/rfc/rfc6749#section-3.3 and the spec's Authentication section */
export const supportedScopes = ['openid', 'profile', 'email', 'offline_access'];
export const defaultScope = ['openid', 'profile', 'email'];

/** Audience values compare without a trailing slash, so `http://host:4010` and `http://host:4010/` are one API. */
export const sameAudience = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/**
 * The spellings of "the API's base host address" a client plausibly sends, each with or without a trailing slash:
 * host with port (`127.0.0.1:4010`, the most literal reading), origin (`http://127.0.0.1:4010`) and base URL
 * (`http://127.0.0.1:4010/v1`), on a loopback address under any of its names. Any other audience is refused.
 */
export function audienceForms(audience: string, basePath = ''): string[] {
  return loopbackAliases(audience.replace(/\/+$/, '')).flatMap((origin) => {
    const host = origin.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
    const forms = [host, origin, ...(basePath ? [`${origin}${basePath}`] : [])];
    return forms.flatMap((form) => [form, `${form}/`]);
  });
}

const LOOPBACK_HOST = /^(https?:\/\/)(127\.0\.0\.1|localhost|\[::1\])(?=:\d+$|$)/i;

/**
 * A loopback origin under each name of the loopback host (`127.0.0.1`, `localhost`, `[::1]`), the port kept: an
 * app served from `http://localhost:5173` names the API `http://localhost:4010` though the mock listens on
 * 127.0.0.1. Any other origin is itself alone.
 */
function loopbackAliases(origin: string): string[] {
  const match = LOOPBACK_HOST.exec(origin);
  if (!match) return [origin];
  const rest = origin.slice(match[0].length);
  return [origin, ...['127.0.0.1', 'localhost', '[::1]'].map((host) => `${match[1]}${host}${rest}`)].filter(
    (form, i, all) => all.indexOf(form) === i,
  );
}

/** Whether `given` is one of the audience's accepted spellings (host names compare case-insensitively). */
export function acceptsAudience(given: string, audience: string, basePath = ''): boolean {
  const wanted = given.trim().toLowerCase();
  return audienceForms(audience, basePath).some((form) => form.toLowerCase() === wanted);
}

/** Identity claims a scope releases, for the ID token and userinfo alike. @see https://openid.net/specs/openid-connect-core-1_0.html#ScopeClaims */
export function userClaims(user: MockUser, scope: string[]): Record<string, unknown> {
  return {
    sub: user.sub,
    ...(scope.includes('email') ? { email: user.email, email_verified: true } : {}),
    ...(scope.includes('profile') ? { name: user.name } : {}),
  };
}
