import { IDEMPOTENCY_KEY_HEADER, RATE_LIMIT_HEADER_NAMES } from '../../../spec/lib/constants';
import type { Stage } from '../../context';

/**
 * What a browser on another origin may do with one mount. Each mount names its policy in the mount table
 * (`mocks/front-door`); finish adds the policy's headers to every answer, answerPreflight answers its preflights.
 */
export type CorsPolicy = {
  /** `*`, or the origins allowed (the request's Origin is echoed when it is one of them, with `Vary: Origin`). */
  allowOrigin: string | ((origin: string) => boolean);
  allowMethods: string;
  /** Allowed request headers when the preflight names none. */
  allowHeaders: string;
  exposeHeaders: string;
  /** Private Network Access: a page served from elsewhere (or a file) may call the mock on loopback. */
  privateNetwork: boolean;
};

/**
 * Every response header the contract declares (its `components.headers`; a test keeps the list equal) and those the
 * mock adds to what HTTP requires: `WWW-Authenticate` on a 401, `Allow` on a 405, a download's file name. Without
 * this list a browser script reads only the CORS-safelisted headers (Fetch standard, `Access-Control-Expose-Headers`).
 */
export const EXPOSED_HEADERS: readonly string[] = [
  ...RATE_LIMIT_HEADER_NAMES,
  'Retry-After',
  'Location',
  'Deprecation',
  'Sunset',
  'WWW-Authenticate',
  'Allow',
  'Content-Disposition',
];
const EXPOSED = EXPOSED_HEADERS.join(', ');

/** The API (and its downloads): any origin, no cookies; the rate-limit and link headers readable by scripts. */
export const API_CORS: CorsPolicy = {
  allowOrigin: '*',
  allowMethods: 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
  allowHeaders: `Authorization, Content-Type, ${IDEMPOTENCY_KEY_HEADER}, Prefer`,
  exposeHeaders: EXPOSED,
  privateNetwork: true,
};

/** OAuth: browser apps on another origin (a dev server) call discovery and the token endpoint directly. */
export const AUTH_CORS: CorsPolicy = {
  allowOrigin: '*',
  allowMethods: 'GET, POST, OPTIONS',
  allowHeaders: 'Content-Type, Authorization',
  exposeHeaders: EXPOSED,
  privateNetwork: false,
};

/** Pages served from this machine: any port of localhost, 127.0.0.0/8 or [::1], over http or https. */
const LOOPBACK_ORIGIN = /^https?:\/\/(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d{1,5})?$/i;

/**
 * The control plane: test runners and dev tools in a browser steer the mock, from the configured origins only
 * (MOCK_CONTROL_ORIGINS; by default pages on loopback), never `*`: a page another site serves cannot read it.
 */
export function controlCors(origins?: readonly string[]): CorsPolicy {
  const allowed = new Set((origins ?? []).map((origin) => origin.replace(/\/+$/, '').toLowerCase()));
  return {
    allowOrigin: origins ? (origin) => allowed.has(origin.toLowerCase()) : (origin) => LOOPBACK_ORIGIN.test(origin),
    allowMethods: 'GET, POST, PUT, PATCH, OPTIONS',
    allowHeaders: 'Authorization, Content-Type, X-Mock-Admin-Token',
    exposeHeaders: EXPOSED,
    privateNetwork: false,
  };
}

/** The control plane's policy by default (loopback origins). */
export const CONTROL_CORS: CorsPolicy = controlCors();

/** The headers every answer of a mount carries (added in place: this is the hot path). */
export function writeCorsHeaders(headers: Record<string, string>, policy: CorsPolicy, origin?: string): void {
  if (typeof policy.allowOrigin === 'string') headers['access-control-allow-origin'] = policy.allowOrigin;
  else {
    headers.vary = headers.vary ? `${headers.vary}, Origin` : 'Origin';
    if (origin === undefined || !policy.allowOrigin(origin)) return;
    headers['access-control-allow-origin'] = origin;
  }
  headers['access-control-expose-headers'] = policy.exposeHeaders;
}

/**
 * Answers CORS preflights before the rate limit: browsers send them on their own, without credentials, so they
 * are never counted nor refused. Their rate-limit headers (added by finish) report without counting the bucket
 * of the caller as authentication found it: the workspace's with a valid credential, else the client address's.
 */
export function answerPreflight(policy: CorsPolicy): Stage {
  return (ctx, next) => {
    const { req } = ctx;
    if (req.method !== 'OPTIONS' || !req.headers['access-control-request-method']) return next();
    const headers: Record<string, string> = {
      'access-control-allow-methods': policy.allowMethods,
      'access-control-allow-headers': req.headers['access-control-request-headers'] ?? policy.allowHeaders,
      'access-control-max-age': '600',
    };
    if (policy.privateNetwork && req.headers['access-control-request-private-network'] === 'true')
      headers['access-control-allow-private-network'] = 'true';
    return Promise.resolve({ status: 204, headers, body: undefined });
  };
}
