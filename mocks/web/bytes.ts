/**
 * Bytes and text without Node: the web-standard core (`mocks/core.ts`) reads bodies, hashes requests and makes
 * uuids through these. Where Node's `Buffer` global exists the same functions use it (faster, the same
 * results: `bytes.test.ts` compares both ways); in a browser they use TextEncoder, TextDecoder, `btoa` and a
 * SHA-256 written here (synchronous, as the idempotency stage needs it per keyed write; Web Crypto's is async).
 */

type NodeBytes = Uint8Array & { toString(encoding: string): string };
type NodeBufferLike = {
  from(value: string, encoding: string): NodeBytes;
  from(value: ArrayBufferLike, offset: number, length: number): NodeBytes;
  byteLength(text: string): number;
  isBuffer(value: unknown): boolean;
  concat(chunks: readonly Uint8Array[], total?: number): Uint8Array;
};

/** Node's Buffer where there is one (a feature, not an import); undefined in a browser. */
const nodeBuffer = (): NodeBufferLike | undefined => (globalThis as { Buffer?: NodeBufferLike }).Buffer;
let fast: NodeBufferLike | undefined = nodeBuffer();

/** Forces the portable paths (tests prove both give the same results). */
export function usePortableBytes(portable: boolean): void {
  fast = portable ? undefined : nodeBuffer();
}

/** No bytes (a Buffer on Node, as every body read from a socket is: one shape where bodies are read). */
export const EMPTY_BYTES: Uint8Array = fast ? fast.from('', 'utf8') : new Uint8Array(0);

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function utf8Encode(text: string): Uint8Array {
  return fast ? fast.from(text, 'utf8') : encoder.encode(text);
}

/** UTF-8 → text; malformed sequences become U+FFFD, as Node's and the WHATWG decoder do. */
export function utf8Decode(bytes: Uint8Array): string {
  return fast ? asNode(fast, bytes).toString('utf8') : decoder.decode(bytes);
}

/** The bytes as a Node Buffer (itself when it is one: a body read from a socket is). */
function asNode(node: NodeBufferLike, bytes: Uint8Array): NodeBytes {
  return node.isBuffer(bytes) ? (bytes as NodeBytes) : node.from(bytes.buffer, bytes.byteOffset, bytes.length);
}

/** The UTF-8 length of a text, without encoding it where that can be avoided. */
export function utf8Length(text: string): number {
  if (fast) return fast.byteLength(text);
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const low = text.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** Each character's low byte (a header value as Node hands it over: latin1). */
export function latin1Encode(text: string): Uint8Array {
  if (fast) return fast.from(text, 'latin1');
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  return bytes;
}

/** One character per byte. */
export function latin1Decode(bytes: Uint8Array): string {
  if (fast) return asNode(fast, bytes).toString('latin1');
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x2000)
    text += String.fromCharCode(...bytes.subarray(i, Math.min(bytes.length, i + 0x2000)));
  return text;
}

export function toBase64(bytes: Uint8Array): string {
  if (fast) return asNode(fast, bytes).toString('base64');
  return btoa(latin1Decode(bytes));
}

export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** base64url (or base64) → bytes; undefined when the text is not base64. */
export function fromBase64Url(text: string): Uint8Array | undefined {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) return undefined;
  try {
    return latin1Encode(atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '=')));
  } catch {
    return undefined;
  }
}

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

export function toHex(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += HEX[byte];
  return text;
}

/** The chunks as one array (`total` their summed length). */
export function concatBytes(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (fast) return fast.concat(chunks, total);
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk.subarray(0, Math.min(chunk.length, total - at)), at);
    at += chunk.length;
    if (at >= total) break;
  }
  return out;
}

/** Compares in time that depends on the length only (a token check must not tell how much of it matched). */
export function equalInConstantTime(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/** Random bytes from Web Crypto (what Node's `crypto` global and every browser have). */
export function randomBytes(count: number): Uint8Array {
  const bytes = new Uint8Array(count);
  for (let at = 0; at < count; at += 65536) crypto.getRandomValues(bytes.subarray(at, Math.min(count, at + 65536)));
  return bytes;
}

export function randomUuid(): string {
  return crypto.randomUUID();
}

/** A native SHA-256 (Node's one-shot `hash`): of bytes, and of a text's UTF-8 straight to base64. */
export type NativeSha256 = { bytes(data: Uint8Array): Uint8Array; base64(text: string): string };
let native: NativeSha256 | undefined;

/** Node's adapter installs its native SHA-256 (same digests, less CPU per keyed write); the core never imports it. */
export function installSha256(implementation: NativeSha256 | undefined): void {
  native = implementation;
}

/** SHA-256 of bytes, or of a text's UTF-8. */
export function sha256(data: Uint8Array | string): Uint8Array {
  const bytes = typeof data === 'string' ? utf8Encode(data) : data;
  return native ? native.bytes(bytes) : portableSha256(bytes);
}

/** The base64 SHA-256 of a text's UTF-8 (the idempotency stage's fingerprint, once per keyed write). */
export function sha256Base64(text: string): string {
  return native ? native.base64(text) : toBase64(portableSha256(utf8Encode(text)));
}

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

/** @see https://www.rfc-editor.org/rfc/rfc6234 (FIPS 180-4 SHA-256) */
function portableSha256(data: Uint8Array): Uint8Array {
  const bitLength = data.length * 8;
  const padded = new Uint8Array(Math.ceil((data.length + 9) / 64) * 64);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLength / 0x100000000));
  view.setUint32(padded.length - 4, bitLength >>> 0);
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(block + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i]);
  return out;
}

function rotr(value: number, bits: number): number {
  return (value >>> bits) | (value << (32 - bits));
}
