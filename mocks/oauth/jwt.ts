import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  timingSafeEqual,
  verify,
  type KeyObject,
} from 'node:crypto';
import type { StoragePort } from '../store/port';

/**
 * One RS256 key per store: the first process to need it generates it and keeps it in the storage port, and
 * every other replica (and this one after a restart, on Redis) signs and verifies with that same key. With the
 * in-memory store each process has its own, so tokens of an earlier process are unknown to the next.
 */
export type SigningKey = { kid: string; privateKey: KeyObject; publicKey: KeyObject; jwk: Record<string, unknown> };

export function createSigningKey(): SigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = randomBytes(8).toString('base64url');
  return { kid, privateKey, publicKey, jwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' } };
}

const SIGNING_KEY = 'oauth:signing-key';

function importSigningKey(text: string): SigningKey {
  const { kid, pem } = JSON.parse(text) as { kid: string; pem: string };
  const privateKey = createPrivateKey(pem);
  const publicKey = createPublicKey(privateKey);
  return { kid, privateKey, publicKey, jwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' } };
}

/** The store's signing key, created (once, whichever replica comes first) when there is none yet. */
export async function loadSharedSigningKey(port: StoragePort): Promise<SigningKey> {
  const [stored] = await port.read([{ op: 'get', key: SIGNING_KEY }]);
  if (stored !== null) return importSigningKey(stored);
  const fresh = createSigningKey();
  const text = JSON.stringify({ kid: fresh.kid, pem: fresh.privateKey.export({ format: 'pem', type: 'pkcs8' }) });
  if (await port.commit([{ op: 'set', key: SIGNING_KEY, value: text }], [{ key: SIGNING_KEY, is: 'absent' }]))
    return fresh;
  const [winner] = await port.read([{ op: 'get', key: SIGNING_KEY }]);
  return importSigningKey(winner ?? text);
}

const encodeSegment = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** @see https://www.rfc-editor.org/rfc/rfc7515#section-3.1 (JWS compact serialisation) */
export function signJwt(key: SigningKey, typ: string, claims: Record<string, unknown>): string {
  const input = `${encodeSegment({ alg: 'RS256', typ, kid: key.kid })}.${encodeSegment(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), key.privateKey).toString('base64url')}`;
}

/** The claims of a token this key signed with the expected `typ`, or null; claim checks are the caller's. */
export function verifyJwt(key: SigningKey, token: string, typ: string): Record<string, unknown> | null {
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8')) as Record<string, unknown>;
    if (header.alg !== 'RS256' || header.kid !== key.kid || header.typ !== typ) return null;
    const valid = verify(
      'sha256',
      Buffer.from(`${parts[0]}.${parts[1]}`),
      key.publicKey,
      Buffer.from(parts[2], 'base64url'),
    );
    if (!valid) return null;
    const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as unknown;
    return claims !== null && typeof claims === 'object' && !Array.isArray(claims)
      ? (claims as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export const randomToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

/** @see https://www.rfc-editor.org/rfc/rfc7636#section-4.1 (code_verifier = 43-128 unreserved characters) */
export const isCodeVerifier = (value: string) => /^[A-Za-z0-9\-._~]{43,128}$/.test(value);

/** An S256 challenge is the base64url (no padding) of a SHA-256 digest: always 43 characters. */
export const isS256Challenge = (value: string) => /^[A-Za-z0-9_-]{43}$/.test(value);

/** @see https://www.rfc-editor.org/rfc/rfc7636#section-4.6 */
export function verifyS256(verifier: string, challenge: string): boolean {
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
