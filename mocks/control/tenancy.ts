import { ApiError } from '../errors';
import { identifyCaller, type AuthenticateDeps } from '../stages/authenticate';
import { equalInConstantTime, utf8Encode } from '../web/bytes';

/**
 * Who steers the mock: a tenant steers its own workspace (its bearer token: a static token or an OAuth access
 * token, as on /v1); the admin (MOCK_ADMIN_TOKEN) steers every workspace and the defaults for all.
 */
export type Controller = { role: 'admin' } | { role: 'tenant'; workspaceUuid: string };

const BEARER = /^Bearer\s+(\S+)$/i;

/** The admin token matches (in constant time); never when none is configured. */
function isAdminToken(given: string | undefined, adminToken: string | undefined): boolean {
  if (!adminToken || given === undefined) return false;
  return equalInConstantTime(utf8Encode(given), utf8Encode(adminToken));
}

/** The controller of a control request, or the 401 to answer (no credential, or one the mock does not know). */
export async function identifyController(
  headers: Record<string, string>,
  deps: AuthenticateDeps & { adminToken?: string },
): Promise<Controller> {
  const bearer = BEARER.exec(headers.authorization?.trim() ?? '')?.[1];
  if (isAdminToken(headers['x-mock-admin-token'] ?? bearer, deps.adminToken)) return { role: 'admin' };
  if (headers['x-mock-admin-token'] !== undefined)
    throw new ApiError(401, 'unauthorized', 'X-Mock-Admin-Token: is not the admin token (MOCK_ADMIN_TOKEN).');
  const identity = await identifyCaller(headers.authorization, deps);
  if ('unidentified' in identity)
    throw new ApiError(
      401,
      'unauthorized',
      `${identity.unidentified} The control plane steers the workspace of the caller's token (a token of the mock or an OAuth access token); the admin token (MOCK_ADMIN_TOKEN) steers every workspace.`,
      {},
      { 'www-authenticate': 'Bearer realm="mock-control"' },
    );
  return { role: 'tenant', workspaceUuid: identity.caller.workspaceUuid };
}

/** Refuses a tenant what only the admin may do (across workspaces): 403 naming the admin token. */
export function requireAdmin(who: Controller, what: string, adminToken: string | undefined): void {
  if (who.role === 'admin') return;
  throw new ApiError(
    403,
    'forbidden',
    adminToken
      ? `${what} needs the admin token (MOCK_ADMIN_TOKEN, as a Bearer token or in X-Mock-Admin-Token); a tenant's token steers its own workspace only.`
      : `${what} needs the admin token, and none is configured: start the mock with MOCK_ADMIN_TOKEN=<secret>. A tenant's token steers its own workspace only.`,
  );
}

/**
 * The workspace a request steers: a tenant's own (naming another is refused 403), or the one the admin names
 * (undefined: every workspace).
 */
export function scopeOf(
  who: Controller,
  named: string | undefined,
  adminToken: string | undefined,
): string | undefined {
  if (who.role === 'admin') return named;
  if (named !== undefined && named !== who.workspaceUuid)
    requireAdmin(who, "Naming a workspace other than the token's own", adminToken);
  return who.workspaceUuid;
}
