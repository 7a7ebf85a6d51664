import type { AuthSetup } from './core';
import { createAuthServer, defaultAuthConfig, type AuthServer } from './oauth';

/**
 * The OAuth server of `/auth` on Node, as the core's `authServer` port asks for it: the documented clients and
 * users (`defaultAuthConfig`), at the core's issuer and audience, on its storage port; `redirectUris`
 * (MOCK_OAUTH_REDIRECT_URIS) replaces every client's redirect URIs.
 */
export function createDefaultAuthServer(setup: AuthSetup): AuthServer {
  const { redirectUris, ...where } = setup;
  const { clients } = defaultAuthConfig;
  return createAuthServer({
    ...defaultAuthConfig,
    clients: redirectUris ? clients.map((client) => ({ ...client, redirectUris })) : clients,
    ...where,
  });
}
