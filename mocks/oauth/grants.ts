import { randomToken } from './jwt';

export type MockUser = { sub: string; email: string; name: string; workspaceUuid: string };

/** One user's consent to one client; every code, access and refresh token issued under it shares its id. */
export type Grant = { id: string; clientId: string; user: MockUser; scope: string[]; authTime: number };

type CodeEntry = { grant: Grant; redirectUri: string; codeChallenge: string; nonce?: string; expiresAt: number; used: boolean };
type RefreshEntry = { grant: Grant; expiresAt: number; active: boolean };

export const codeTtlMs = 60_000;
export const refreshTokenTtlMs = 30 * 24 * 3600_000;

export type CodeRedemption =
  | { status: 'ok'; entry: CodeEntry }
  | { status: 'invalid' }
  | { status: 'reused'; grant: Grant };

export type RefreshRedemption = { status: 'ok'; grant: Grant } | { status: 'invalid' } | { status: 'reused'; grant: Grant };

/**
 * Codes, refresh tokens and revocations, in memory and on the injected clock. A second use of a code or of a
 * rotated refresh token revokes the whole grant.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2 and https://www.rfc-editor.org/rfc/rfc9700#section-4.14.2
 */
export class GrantStore {
  private readonly codes = new Map<string, CodeEntry>();
  private readonly refreshTokens = new Map<string, RefreshEntry>();
  private readonly revokedGrants = new Set<string>();
  private readonly revokedTokenIds = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  issueCode(grant: Grant, redirectUri: string, codeChallenge: string, nonce?: string): string {
    this.prune();
    const code = randomToken();
    this.codes.set(code, { grant, redirectUri, codeChallenge, nonce, expiresAt: this.now() + codeTtlMs, used: false });
    return code;
  }

  /** Consumes the code on its first presentation, whatever the outcome of the checks that follow. */
  redeemCode(code: string): CodeRedemption {
    const entry = this.codes.get(code);
    if (!entry || entry.expiresAt <= this.now() || this.revokedGrants.has(entry.grant.id)) return { status: 'invalid' };
    if (entry.used) return { status: 'reused', grant: entry.grant };
    entry.used = true;
    return { status: 'ok', entry };
  }

  issueRefreshToken(grant: Grant): string {
    const token = randomToken();
    this.refreshTokens.set(token, { grant, expiresAt: this.now() + refreshTokenTtlMs, active: true });
    return token;
  }

  /** Rotation: the presented token stops working as it is exchanged for a new one. */
  redeemRefreshToken(token: string): RefreshRedemption {
    const entry = this.refreshTokens.get(token);
    if (!entry || entry.expiresAt <= this.now() || this.revokedGrants.has(entry.grant.id)) return { status: 'invalid' };
    if (!entry.active) return { status: 'reused', grant: entry.grant };
    entry.active = false;
    return { status: 'ok', grant: entry.grant };
  }

  findRefreshGrant(token: string): Grant | undefined {
    return this.refreshTokens.get(token)?.grant;
  }

  revokeGrant(grantId: string): void {
    this.revokedGrants.add(grantId);
  }

  /** Remembers a revoked access token until it would have expired anyway (`expiresAt` in ms). */
  revokeTokenId(tokenId: string, expiresAt: number): void {
    this.revokedTokenIds.set(tokenId, expiresAt);
  }

  isRevoked(tokenId: string, grantId: string): boolean {
    return this.revokedTokenIds.has(tokenId) || this.revokedGrants.has(grantId);
  }

  private prune(): void {
    const now = this.now();
    for (const [code, entry] of this.codes) if (entry.expiresAt + codeTtlMs <= now) this.codes.delete(code);
    for (const [id, expiresAt] of this.revokedTokenIds) if (expiresAt <= now) this.revokedTokenIds.delete(id);
    for (const [token, entry] of this.refreshTokens) if (entry.expiresAt <= now) this.refreshTokens.delete(token);
  }
}
