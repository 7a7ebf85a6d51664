import { sha256, toHex } from '../../web/bytes';

/**
 * Prism's generated bodies (`Prefer: dynamic=true`) fill strings whose format the contract leaves open with
 * lorem ipsum, and counts with any integer. A frontend parses them, so they are made to look like what the API
 * sends, by field name: `…At` a timestamp, `uuid`/`…Uuid` a uuid, `email` an address, and a list's `count` at
 * least the items on the page. Each value is derived from the generated one, so a seed still gives the same body.
 */
export function tidyDynamicBody(body: unknown): unknown {
  return tidy(body, '');
}

const EPOCH = Date.UTC(2026, 0, 1);
const YEAR_MS = 365 * 24 * 3600 * 1000;

function digest(value: unknown): Uint8Array {
  return sha256(JSON.stringify(value));
}

const uint32 = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset).getUint32(0);
const uint16 = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset).getUint16(0);

function tidy(value: unknown, name: string): unknown {
  if (Array.isArray(value)) return value.map((item) => tidy(item, name));
  if (value !== null && typeof value === 'object') {
    const object = Object.fromEntries(Object.entries(value).map(([key, child]) => [key, tidy(child, key)]));
    const page = Object.values(object).find(Array.isArray) as unknown[] | undefined;
    if (page && typeof object.count === 'number' && (object.count < page.length || object.count > page.length + 1000))
      object.count = page.length;
    return object;
  }
  if (typeof value !== 'string') return value;
  if (/At$/.test(name)) return new Date(EPOCH + (uint32(digest(value)) % YEAR_MS)).toISOString();
  if (/^uuid$|Uuid$/.test(name) || /Uuids$/.test(name)) return uuidFrom(digest(value));
  if (/^email$|Email$/.test(name)) return `user${uint16(digest(value))}@example.com`;
  return value;
}

/** A version 4 uuid with an RFC 4122 variant, inside the contract's uuid rule. */
function uuidFrom(bytes: Uint8Array): string {
  const b = bytes.slice(0, 16);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = toHex(b);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
