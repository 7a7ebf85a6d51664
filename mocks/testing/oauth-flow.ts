import { createHash, randomBytes } from 'node:crypto';
import type { MockUser } from '../oauth';

export type OAuthAnswer = { status: number; body: Record<string, string> };
export type IssuedCode = { code: string | null; error: string | null; description: string | null; verifier: string };

/**
 * The client's side of the PKCE flow against `<origin>/auth`, one user at a time (`login_hint`), with plain fetch:
 * for the OAuth bound tests and the flood script, where the volume is the point.
 */
export function oauthFlow(origin: string, clientId = 'mock-frontend', redirectUri = 'http://127.0.0.1:5173/callback') {
  const base64url = (bytes: Buffer) => bytes.toString('base64url');
  /** The browser's part for one user: a code, or the error the redirect carries. */
  const authorize = async (user: MockUser): Promise<IssuedCode> => {
    const verifier = base64url(randomBytes(32));
    const url = new URL(`${origin}/auth/authorize`);
    url.search = new URLSearchParams({
      client_id: clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid offline_access',
      code_challenge: base64url(createHash('sha256').update(verifier).digest()),
      code_challenge_method: 'S256',
      state: 's',
      audience: origin,
      login_hint: user.email,
    }).toString();
    const response = await fetch(url, { redirect: 'manual' });
    const redirect = response.headers.get('location');
    if (redirect === null) throw new Error(`authorize answered ${response.status} without a Location`);
    const location = new URL(redirect);
    return {
      code: location.searchParams.get('code'),
      error: location.searchParams.get('error'),
      description: location.searchParams.get('error_description'),
      verifier,
    };
  };
  const post = async (path: string, params: Record<string, string>): Promise<OAuthAnswer> => {
    const response = await fetch(`${origin}/auth${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: clientId, ...params }).toString(),
    });
    return { status: response.status, body: (await response.json()) as Record<string, string> };
  };
  const exchange = (issued: IssuedCode) =>
    post('/oauth/token', {
      grant_type: 'authorization_code',
      code: issued.code ?? '',
      redirect_uri: redirectUri,
      code_verifier: issued.verifier,
    });
  return {
    authorize,
    exchange,
    refresh: (token: string) => post('/oauth/token', { grant_type: 'refresh_token', refresh_token: token }),
    revoke: (token: string) => post('/oauth/revoke', { token }),
    /** Authorize and exchange: the token response (status 200 expected). */
    login: async (user: MockUser) => exchange(await authorize(user)),
    /** Whether an access token is accepted (userinfo answers 200). */
    works: async (accessToken: string) =>
      (await fetch(`${origin}/auth/userinfo`, { headers: { authorization: `Bearer ${accessToken}` } })).status === 200,
  };
}
