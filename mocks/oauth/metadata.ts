import type { AuthContext } from './context';
import { supportedScopes } from './context';

/** @see https://www.rfc-editor.org/rfc/rfc8414#section-2 */
export function buildMetadata(ctx: AuthContext): Record<string, unknown> {
  return {
    issuer: ctx.issuer,
    authorization_endpoint: ctx.endpoints.authorization,
    token_endpoint: ctx.endpoints.token,
    revocation_endpoint: ctx.endpoints.revocation,
    jwks_uri: ctx.endpoints.jwks,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    scopes_supported: supportedScopes,
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    // RFC 9207: the authorization response names its issuer, so a client can detect mix-up attacks.
    authorization_response_iss_parameter_supported: true,
    id_token_signing_alg_values_supported: ['RS256'],
  };
}

/** @see https://www.rfc-editor.org/rfc/rfc8414#section-3.1 (the well-known URI is inserted before the issuer's path) */
export function metadataPaths(issuerPath: string): string[] {
  const suffix = '/.well-known/oauth-authorization-server';
  return [...new Set([`${issuerPath}${suffix}`, `${suffix}${issuerPath}`])];
}
