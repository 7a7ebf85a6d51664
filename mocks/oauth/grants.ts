import type { StoragePort } from '../store/port';
import { randomToken } from './jwt';

export type MockUser = { sub: string; email: string; name: string; workspaceUuid: string };

/** One user's consent to one client; every code, access and refresh token issued under it shares its id. */
export type Grant = { id: string; clientId: string; user: MockUser; scope: string[]; authTime: number };

type CodeEntry = {
  grant: Grant;
  redirectUri: string;
  codeChallenge: string;
  nonce?: string;
  expiresAt: number;
  used: boolean;
};
/**
 * A refresh token; once rotated, `rotatedAt` and (as soon as it is issued) the `answer` it was exchanged for, which
 * a concurrent refresh with the same token gets too during `refreshGraceMs`.
 */
type RefreshEntry = {
  grant: Grant;
  expiresAt: number;
  active: boolean;
  rotatedAt?: number;
  answer?: Record<string, unknown>;
};

export const codeTtlMs = 60_000;
export const refreshTokenTtlMs = 30 * 24 * 3600_000;
/**
 * How long a rotated refresh token still answers with what it was exchanged for: two tabs (or a retry after a lost
 * answer) refreshing with the same token both succeed; a reuse after it revokes the grant.
 */
export const refreshGraceMs = 10_000;
/** How long a concurrent refresh waits for the answer of the one that won the rotation (then refused). */
const answerWaitMs = 2_000;

export type CodeRedemption =
  { status: 'ok'; entry: CodeEntry } | { status: 'invalid' } | { status: 'reused'; grant: Grant };

export type RefreshRedemption =
  | { status: 'ok'; grant: Grant }
  | { status: 'invalid' }
  | { status: 'reused'; grant: Grant }
  /** A rotated token presented again within the grace: the answer of its rotation (or none, if it failed). */
  | { status: 'concurrent'; grant: Grant; answer?: Record<string, unknown> };

/**
 * Entries of each kind kept at once (oldest out first), besides each one's own expiry, and the bytes one entry
 * may take: every field of an entry is bounded (registered client and redirect URI, known scopes, a configured
 * user, an S256 challenge, a nonce of at most `nonceLength` characters), so a kind holds at most count × bytes.
 */
export type GrantLimits = {
  codes: number;
  refreshTokens: number;
  revocations: number;
  entryBytes: number;
  nonceLength: number;
};
export const DEFAULT_GRANT_LIMITS: GrantLimits = {
  codes: 10_000,
  refreshTokens: 10_000,
  revocations: 10_000,
  entryBytes: 4096,
  nonceLength: 512,
};

/**
 * Codes, refresh tokens and revocations, in the storage port (so a code issued by one replica is redeemed on
 * another, and a revocation holds everywhere) and on the injected clock. Each entry expires with its own TTL in
 * the store; each kind is capped by count. A code or refresh token is consumed by compare-and-set: of two
 * concurrent presentations, on any replicas, one wins and the other is a reuse. A second use of a code, or of a
 * rotated refresh token after `refreshGraceMs`, revokes the whole grant; within the grace the same refresh token
 * gets the answer of its rotation again (the token pair it was exchanged for).
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2 and https://www.rfc-editor.org/rfc/rfc9700#section-4.14.2
 */
export class GrantStore {
  constructor(
    private readonly port: StoragePort,
    private readonly now: () => number,
    readonly limits: GrantLimits = DEFAULT_GRANT_LIMITS,
  ) {}

  async issueCode(grant: Grant, redirectUri: string, codeChallenge: string, nonce?: string): Promise<string> {
    const code = randomToken();
    const entry: CodeEntry = {
      grant,
      redirectUri,
      codeChallenge,
      nonce,
      expiresAt: this.now() + codeTtlMs,
      used: false,
    };
    await this.port.claim(`oauth:code:${code}`, this.bounded(entry), codeTtlMs, {
      key: 'oauth:codes',
      cap: this.limits.codes,
    });
    return code;
  }

  /** Consumes the code on its first presentation, whatever the outcome of the checks that follow. */
  async redeemCode(code: string): Promise<CodeRedemption> {
    const key = `oauth:code:${code}`;
    for (;;) {
      const [text] = await this.port.read([{ op: 'get', key }]);
      if (text === null) return { status: 'invalid' };
      const entry = JSON.parse(text) as CodeEntry;
      if (entry.expiresAt <= this.now() || (await this.isGrantRevoked(entry.grant.id))) return { status: 'invalid' };
      if (entry.used) return { status: 'reused', grant: entry.grant };
      const ttlMs = Math.max(1, entry.expiresAt - this.now());
      if (
        await this.port.commit(
          [{ op: 'set', key, value: JSON.stringify({ ...entry, used: true }), ttlMs }],
          [{ key, is: 'equals', value: text }],
        )
      ) {
        return { status: 'ok', entry };
      }
    }
  }

  async issueRefreshToken(grant: Grant): Promise<string> {
    const token = randomToken();
    const entry: RefreshEntry = { grant, expiresAt: this.now() + refreshTokenTtlMs, active: true };
    await this.port.claim(`oauth:refresh:${token}`, this.bounded(entry), refreshTokenTtlMs, {
      key: 'oauth:refresh-tokens',
      cap: this.limits.refreshTokens,
    });
    return token;
  }

  /** Rotation: the presented token stops working as it is exchanged for a new one (see `refreshGraceMs`). */
  async redeemRefreshToken(token: string): Promise<RefreshRedemption> {
    const key = `oauth:refresh:${token}`;
    const waitUntil = Date.now() + answerWaitMs;
    for (;;) {
      const [text] = await this.port.read([{ op: 'get', key }]);
      if (text === null) return { status: 'invalid' };
      const entry = JSON.parse(text) as RefreshEntry;
      if (entry.expiresAt <= this.now() || (await this.isGrantRevoked(entry.grant.id))) return { status: 'invalid' };
      if (!entry.active) {
        const withinGrace = entry.rotatedAt !== undefined && this.now() - entry.rotatedAt < refreshGraceMs;
        if (!withinGrace) return { status: 'reused', grant: entry.grant };
        // The winner is still issuing: wait (on the real clock) for its answer, on this replica or another.
        if (entry.answer || Date.now() >= waitUntil)
          return { status: 'concurrent', grant: entry.grant, answer: entry.answer };
        await new Promise((resolve) => setTimeout(resolve, 10));
        continue;
      }
      const ttlMs = Math.max(1, entry.expiresAt - this.now());
      const rotated: RefreshEntry = { ...entry, active: false, rotatedAt: this.now() };
      if (
        await this.port.commit(
          [{ op: 'set', key, value: JSON.stringify(rotated), ttlMs }],
          [{ key, is: 'equals', value: text }],
        )
      ) {
        return { status: 'ok', grant: entry.grant };
      }
    }
  }

  /** Keeps what a rotated refresh token was exchanged for, for a concurrent refresh within the grace. */
  async recordRotation(token: string, answer: Record<string, unknown>): Promise<void> {
    const key = `oauth:refresh:${token}`;
    const [text] = await this.port.read([{ op: 'get', key }]);
    if (text === null) return;
    const entry = JSON.parse(text) as RefreshEntry;
    const value = JSON.stringify({ ...entry, answer });
    // Past the entry bound (outsized configured claims) nothing is kept: a concurrent refresh is then refused.
    if (Buffer.byteLength(value) > this.limits.entryBytes) return;
    const ttlMs = Math.max(1, entry.expiresAt - this.now());
    await this.port.commit([{ op: 'set', key, value, ttlMs }], [{ key, is: 'equals', value: text }]);
  }

  async findRefreshGrant(token: string): Promise<Grant | undefined> {
    const [text] = await this.port.read([{ op: 'get', key: `oauth:refresh:${token}` }]);
    return text === null ? undefined : (JSON.parse(text) as RefreshEntry).grant;
  }

  /** Kept as long as a refresh token of the grant could live. */
  async revokeGrant(grantId: string): Promise<void> {
    await this.revoke(`oauth:revoked-grant:${grantId}`, refreshTokenTtlMs);
  }

  /** Remembers a revoked access token until it would have expired anyway (`expiresAt` in ms). */
  async revokeTokenId(tokenId: string, expiresAt: number): Promise<void> {
    const ttlMs = expiresAt - this.now();
    if (ttlMs > 0) await this.revoke(`oauth:revoked-token:${tokenId}`, ttlMs);
  }

  /** One round trip for both checks: this is on the path of every request with an OAuth token. */
  async isRevoked(tokenId: string, grantId: string): Promise<boolean> {
    const [token, grant] = await this.port.read([
      { op: 'get', key: `oauth:revoked-token:${tokenId}` },
      { op: 'get', key: `oauth:revoked-grant:${grantId}` },
    ]);
    return token !== null || grant !== null;
  }

  private async isGrantRevoked(grantId: string): Promise<boolean> {
    const [grant] = await this.port.read([{ op: 'get', key: `oauth:revoked-grant:${grantId}` }]);
    return grant !== null;
  }

  /** The entry's text, refused beyond the byte bound (a configuration with outsized users, never a request). */
  private bounded(entry: CodeEntry | RefreshEntry): string {
    const text = JSON.stringify(entry);
    if (Buffer.byteLength(text) > this.limits.entryBytes)
      throw new Error(`OAuth entry of ${Buffer.byteLength(text)} bytes, over the bound of ${this.limits.entryBytes}`);
    return text;
  }

  private async revoke(key: string, ttlMs: number): Promise<void> {
    await this.port.claim(key, '1', ttlMs, { key: 'oauth:revocations', cap: this.limits.revocations });
  }
}
