import type { AuthContext } from './context';
import { audienceForms, supportedScopes } from './context';

/** @see https://www.rfc-editor.org/rfc/rfc8414#section-2 */
export function buildMetadata(ctx: AuthContext): Record<string, unknown> {
  return {
    issuer: ctx.issuer,
    authorization_endpoint: ctx.endpoints.authorization,
    token_endpoint: ctx.endpoints.token,
    revocation_endpoint: ctx.endpoints.revocation,
    jwks_uri: ctx.endpoints.jwks,
    userinfo_endpoint: ctx.endpoints.userinfo,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    scopes_supported: supportedScopes,
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    // RFC 9207: the authorization response names its issuer, so a client can detect mix-up attacks.
    authorization_response_iss_parameter_supported: true,
    // OpenID Connect Discovery 1.0 §3 fields, so OIDC clients (their default discovery) accept the same document.
    id_token_signing_alg_values_supported: ['RS256'],
    subject_types_supported: ['public'],
    claims_supported: ['sub', 'email', 'email_verified', 'name'],
    // Not registered metadata (RFC 8414 §2 allows more): the `audience` the authorization request needs, as
    // every token carries it, and each spelling of it the server accepts.
    audience: ctx.options.audience.replace(/\/+$/, ''),
    audience_forms_accepted: audienceForms(ctx.options.audience, ctx.options.basePath),
  };
}

/**
 * The spec's `{auth_url}/.well-known/oauth-authorization-server`, the RFC 8414 §3.1 location (well-known URI inserted
 * before the issuer's path) and OpenID Connect Discovery's `{issuer}/.well-known/openid-configuration`.
 */
export function metadataPaths(issuerPath: string): string[] {
  const suffix = '/.well-known/oauth-authorization-server';
  return [
    ...new Set([`${issuerPath}${suffix}`, `${suffix}${issuerPath}`, `${issuerPath}/.well-known/openid-configuration`]),
  ];
}
