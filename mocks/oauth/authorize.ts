import type { MockRequest, MockResponse } from '../types';
import type { AuthContext } from './context';
import { defaultScope, supportedScopes, acceptsAudience, audienceForms } from './context';
import { randomToken, isS256Challenge } from './jwt';
import { errorPage, readParams, redirect, tokenError } from './http';
import { matchesRedirectUri, redirectUriRefusal } from './redirect-uri';

/**
 * The authorization endpoint: validates the request and, the mock having no login page, approves it at once for the
 * configured user (first user, or the one `login_hint` names).
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.1 and https://www.rfc-editor.org/rfc/rfc7636#section-4.3
 */
export async function handleAuthorize(ctx: AuthContext, req: MockRequest): Promise<MockResponse> {
  const { query } = req;
  const params = readParams(query);
  const errorPage = (error: string, description: string) => unsafeToRedirect(req, error, description);
  const clientId = query.getAll('client_id');
  const client = clientId.length === 1 ? ctx.options.clients.find((c) => c.clientId === clientId[0]) : undefined;
  if (!client) return errorPage('invalid_request', 'client_id is missing, repeated or not registered.');
  const redirectUri = query.getAll('redirect_uri');
  // Matched against the registration (loopback ones on any port): never redirect to an address it did not register.
  if (redirectUri.length !== 1 || !matchesRedirectUri(client.redirectUris, redirectUri[0])) {
    return errorPage('invalid_request', redirectUriRefusal(client, redirectUri));
  }

  const stateValues = query.getAll('state');
  const state = stateValues.length === 1 ? stateValues[0] : undefined;
  const answer = (values: Record<string, string>) => {
    const location = new URL(redirectUri[0]);
    for (const [name, value] of Object.entries(values)) location.searchParams.set(name, value);
    if (state !== undefined) location.searchParams.set('state', state);
    location.searchParams.set('iss', ctx.issuer);
    return redirect(location);
  };
  const fail = (error: string, description: string) => answer({ error, error_description: description });

  if (params.duplicate) return fail('invalid_request', `The parameter ${params.duplicate} is repeated.`);
  const responseType = params.get('response_type');
  if (!responseType) return fail('invalid_request', 'response_type is required.');
  if (responseType !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported.');
  const responseMode = params.get('response_mode');
  if (responseMode && responseMode !== 'query')
    return fail('invalid_request', 'Only response_mode=query is supported.');
  if (!state) return fail('invalid_request', 'state is required.');
  const codeChallenge = params.get('code_challenge');
  if (!codeChallenge) return fail('invalid_request', 'code_challenge is required (PKCE).');
  if (params.get('code_challenge_method') !== 'S256') {
    return fail('invalid_request', 'code_challenge_method must be S256; plain is not supported.');
  }
  if (!isS256Challenge(codeChallenge))
    return fail('invalid_request', 'code_challenge is not a base64url SHA-256 digest.');
  const audience = params.get('audience');
  if (!audience) return fail('invalid_request', `audience is required; set it to ${ctx.options.audience}.`);
  // RFC 8707 names the error for an unknown target; `audience` plays that part here.
  if (!acceptsAudience(audience, ctx.options.audience, ctx.options.basePath)) {
    const forms = audienceForms(ctx.options.audience, ctx.options.basePath).filter((form) => !form.endsWith('/'));
    return fail(
      'invalid_target',
      `audience must be the API's base host address: ${forms.join(', ')} (a trailing slash is fine).`,
    );
  }
  const requestedScope = params.get('scope');
  const scope = requestedScope ? [...new Set(requestedScope.split(' ').filter(Boolean))] : defaultScope;
  const unknownScope = scope.find((s) => !supportedScopes.includes(s));
  if (unknownScope) return fail('invalid_scope', `The scope ${unknownScope} is not supported.`);

  // The nonce is kept with the code: its bound is what bounds the bytes of the code store.
  const nonce = params.get('nonce');
  const nonceLength = ctx.grants.limits.nonceLength;
  if (nonce !== undefined && nonce.length > nonceLength)
    return fail('invalid_request', `nonce: at most ${nonceLength} characters, got ${nonce.length}.`);

  const loginHint = params.get('login_hint');
  const user = loginHint
    ? ctx.options.users.find((u) => u.email === loginHint || u.sub === loginHint)
    : ctx.options.users[0];
  if (!user) return fail('access_denied', 'No mock user matches login_hint.');

  const grant = { id: randomToken(12), clientId: client.clientId, user, scope, authTime: ctx.options.now() };
  const issued = await ctx.grants.issueCode(grant, redirectUri[0], codeChallenge, nonce);
  // Over its own bound the client is refused; no one else's code is voided to make room.
  if ('refused' in issued) return fail('temporarily_unavailable', issued.refused);
  return answer({ code: issued.code });
}

/**
 * The answer when redirecting would be unsafe: a page for the person in the browser, or, to a client that asks
 * for JSON only (a script, a test), the error in the contract's shape (with OAuth's `error`).
 */
function unsafeToRedirect(req: MockRequest, error: string, description: string): MockResponse {
  const accept = req.headers.accept ?? '';
  return /application\/json/i.test(accept) && !/text\/html/i.test(accept)
    ? tokenError(error, description)
    : errorPage(error, description);
}
