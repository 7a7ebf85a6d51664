import { ClaimRefusedError, type ClaimIndex, type StoragePort, type Write } from '../store/port';
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
 * Bounds per client and per grant, so no client's volume can void what another holds: a client over a bound is
 * refused (its own entries stay), never served by evicting someone else's. Codes and grants are counted per client
 * and user, refresh tokens and single-token revocations per grant. Every field of an entry is bounded (registered
 * client and redirect URI, known scopes, a configured user, an S256 challenge, a nonce of at most `nonceLength`
 * characters), so an entry takes at most `entryBytes`; clients and users are configured, so the whole store is too.
 */
export type GrantLimits = {
  /** Unexpired codes one client holds for one user (used ones too, until their 60 s are over: reuse is detected). */
  codesPerUser: number;
  /** Grants with live tokens one client holds for one user (a revoked grant counts until its tokens would expire). */
  grantsPerUser: number;
  /**
   * Refresh tokens kept per grant: its current one and the rotated ones before it, whose reuse revokes the grant.
   * Beyond it the grant's own oldest rotated token is forgotten (presenting it then answers `invalid_grant`).
   */
  refreshTokensPerGrant: number;
  /** Access tokens of one grant revoked one by one; revoking one more revokes the whole grant (it stops working). */
  revocationsPerGrant: number;
  entryBytes: number;
  nonceLength: number;
};
export const DEFAULT_GRANT_LIMITS: GrantLimits = {
  codesPerUser: 1000,
  grantsPerUser: 1000,
  refreshTokensPerGrant: 10,
  revocationsPerGrant: 100,
  entryBytes: 4096,
  nonceLength: 512,
};

/** Why a client was refused an entry: its own bound is reached (nothing of anyone else's was touched). */
export type Refusal = { refused: string };

/** What a grant's slot holds: how long any token issued under it may live, and the index that counts it. */
type Slot = { lifeMs: number; index: string };

/**
 * Codes, refresh tokens, grants and revocations, in the storage port (so a code issued by one replica is redeemed
 * on another, and a revocation holds everywhere) and on the injected clock. Each entry expires with its own TTL in
 * the store and is counted under its client and user, or its grant (`GrantLimits`). A code or refresh token is
 * consumed by compare-and-set: of two concurrent presentations, on any replicas, one wins and the other is a reuse.
 * A second use of a code, or of a rotated refresh token after `refreshGraceMs`, revokes the whole grant; within the
 * grace the same refresh token gets the answer of its rotation again (the token pair it was exchanged for). A grant
 * holds a slot from its first tokens for as long as one of them may live (slid on every refresh), and its
 * revocation is kept as long.
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2 and https://www.rfc-editor.org/rfc/rfc9700#section-4.14.2
 */
export class GrantStore {
  constructor(
    private readonly port: StoragePort,
    private readonly now: () => number,
    readonly limits: GrantLimits = DEFAULT_GRANT_LIMITS,
  ) {}

  /** A new code, or a refusal when the client holds its bound of unexpired codes for this user. */
  async issueCode(
    grant: Grant,
    redirectUri: string,
    codeChallenge: string,
    nonce?: string,
  ): Promise<{ code: string } | Refusal> {
    const code = randomToken();
    const entry: CodeEntry = {
      grant,
      redirectUri,
      codeChallenge,
      nonce,
      expiresAt: this.now() + codeTtlMs,
      used: false,
    };
    const cap = this.limits.codesPerUser;
    const index = { key: `oauth:codes:${grant.clientId}:${grant.user.sub}`, cap, whenFull: 'refuse' as const };
    if (!(await this.claimWithin(`oauth:code:${code}`, this.bounded(entry), codeTtlMs, index)))
      return {
        refused:
          `The client ${grant.clientId} holds ${cap} unexpired authorization codes for this user, its bound; ` +
          `codes expire ${codeTtlMs / 1000} s after they are issued.`,
      };
    return { code };
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

  /**
   * Takes the grant's slot among its client's grants for its user before its first tokens are issued, for as long
   * as they may live: an access token (`accessTokenTtlMs`), or a refresh token when `offline_access` was granted.
   * Undefined when taken; a refusal when the client holds its bound of grants for this user.
   */
  async holdGrant(grant: Grant, accessTokenTtlMs: number): Promise<Refusal | undefined> {
    const lifeMs = grant.scope.includes('offline_access') ? refreshTokenTtlMs : accessTokenTtlMs;
    const cap = this.limits.grantsPerUser;
    const index = this.grantIndex(grant);
    const slot: Slot = { lifeMs, index: index.key };
    if (await this.claimWithin(`oauth:grant:${grant.id}`, JSON.stringify(slot), lifeMs, index)) return undefined;
    return {
      refused:
        `The client ${grant.clientId} holds ${cap} grants with live tokens for this user, its bound; ` +
        'revoking its refresh tokens does not free them before their tokens would have expired.',
    };
  }

  /** A new refresh token of the grant, which keeps its last `refreshTokensPerGrant` (its own oldest out). */
  async issueRefreshToken(grant: Grant): Promise<string> {
    const token = randomToken();
    const entry: RefreshEntry = { grant, expiresAt: this.now() + refreshTokenTtlMs, active: true };
    await this.port.claim(`oauth:refresh:${token}`, this.bounded(entry), refreshTokenTtlMs, {
      key: `oauth:refresh-tokens:${grant.id}`,
      cap: this.limits.refreshTokensPerGrant,
    });
    // The grant's slot (and its client's index) lives as long as this token may.
    const slot: Slot = { lifeMs: refreshTokenTtlMs, index: this.grantIndex(grant).key };
    const slotKey = `oauth:grant:${grant.id}`;
    await this.port.commit(
      [
        { op: 'set', key: slotKey, value: JSON.stringify(slot), ttlMs: refreshTokenTtlMs },
        { op: 'expire', key: slot.index, ttlMs: refreshTokenTtlMs },
      ],
      [{ key: slotKey, is: 'present' }],
    );
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

  /**
   * Kept as long as a token of the grant could live (its slot's life; at least `atLeastMs`), and its slot with
   * it, so revoked grants stay counted under their client. A grant without a slot has no live token: nothing to do.
   */
  async revokeGrant(grantId: string, atLeastMs = 0): Promise<void> {
    const slotKey = `oauth:grant:${grantId}`;
    const [text] = await this.port.read([{ op: 'get', key: slotKey }]);
    const slot = text === null ? undefined : (JSON.parse(text) as Slot);
    const ttlMs = Math.max(slot?.lifeMs ?? 0, atLeastMs);
    if (ttlMs <= 0) return;
    const writes: Write[] = [{ op: 'set', key: `oauth:revoked-grant:${grantId}`, value: '1', ttlMs }];
    if (slot) writes.push({ op: 'expire', key: slotKey, ttlMs });
    // The index lives as long as its longest slot: extended only by the longest life a slot can have.
    if (slot && ttlMs >= refreshTokenTtlMs) writes.push({ op: 'expire', key: slot.index, ttlMs });
    await this.port.commit(writes);
  }

  /**
   * Remembers a revoked access token until it would have expired anyway (`expiresAt` in ms), among its grant's
   * revocations; beyond their bound the whole grant is revoked instead, so a revocation is never refused nor lost.
   */
  async revokeTokenId(tokenId: string, expiresAt: number, grantId: string): Promise<void> {
    const ttlMs = expiresAt - this.now();
    if (ttlMs <= 0) return;
    const index = { key: `oauth:revoked-tokens:${grantId}`, cap: this.limits.revocationsPerGrant };
    if (!(await this.claimWithin(`oauth:revoked-token:${tokenId}`, '1', ttlMs, { ...index, whenFull: 'refuse' })))
      await this.revokeGrant(grantId, ttlMs);
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

  private grantIndex(grant: Grant) {
    return {
      key: `oauth:grants:${grant.clientId}:${grant.user.sub}`,
      cap: this.limits.grantsPerUser,
      whenFull: 'refuse' as const,
    };
  }

  /** Claims `key` under a refusing index: false when the index is full (nothing stored). */
  private async claimWithin(key: string, value: string, ttlMs: number, index: ClaimIndex): Promise<boolean> {
    try {
      await this.port.claim(key, value, ttlMs, index);
      return true;
    } catch (error) {
      if (error instanceof ClaimRefusedError) return false;
      throw error;
    }
  }
}
