import type { Ctx } from '../context';
import type { ErrorDialect } from '../stages/finish';
import { noStoreHeaders } from './http';

/**
 * The bucket of a request to the OAuth endpoints: its client address, apart from the API's buckets. Not the
 * `client_id`: a public client's id is public (anyone could spend the quota of every user of the app) and an
 * unregistered one changes at will; the metadata, keys and userinfo endpoints carry none.
 */
export const authRateLimitBucket = (ctx: Ctx) => `auth-address:${ctx.source.remoteAddress}`;

/**
 * Errors the front door answers on the OAuth endpoints (429, 413, a body that stalls, 404, 405, 503) keep the
 * contract's error shape and add, for OAuth client libraries, `error` and `error_description` (RFC 6749 §5.2;
 * a spent quota is `temporarily_unavailable`, §4.1.2.1), never stored by a cache.
 */
export const oauthErrorDialect: ErrorDialect = (error) => ({
  body: {
    error: error.status === 429 || error.status === 503 ? 'temporarily_unavailable' : 'invalid_request',
    error_description: error.message,
  },
  headers: noStoreHeaders,
});
