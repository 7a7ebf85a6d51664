import { createHash, hash } from 'node:crypto';
import {
  concatBytes,
  equalInConstantTime,
  fromBase64Url,
  installSha256,
  latin1Decode,
  latin1Encode,
  sha256,
  sha256Base64,
  toBase64,
  toBase64Url,
  toHex,
  usePortableBytes,
  utf8Decode,
  utf8Encode,
  utf8Length,
} from './bytes';
import { defined } from '../testing/defined';

const TEXTS: [string, string][] = [
  ['empty', ''],
  ['ascii', 'POST /mcpServers\n[]\n{"name":"a"}'],
  ['two-byte', 'café'],
  ['astral', '😀 emoji 😀'],
  ['lone surrogate', 'a\ud800b'],
  ['long', 'x'.repeat(70_000)],
];

describe.each([
  ['with Node Buffer and its hash', false],
  ['portable (browser)', true],
])('bytes %s', (_name, portable) => {
  beforeAll(() => {
    usePortableBytes(portable);
    installSha256(
      portable
        ? undefined
        : { bytes: (data) => hash('sha256', data, 'buffer'), base64: (text) => hash('sha256', text, 'base64') },
    );
  });
  afterAll(() => {
    usePortableBytes(false);
    installSha256(undefined);
  });

  it.each(TEXTS)('should encode, measure and decode %s as Node does', (_label, text) => {
    const bytes = utf8Encode(text);
    expect(Buffer.from(bytes).equals(Buffer.from(text, 'utf8'))).toBe(true);
    expect(utf8Length(text)).toBe(Buffer.byteLength(text));
    expect(utf8Decode(bytes)).toBe(Buffer.from(text, 'utf8').toString('utf8'));
    expect(toBase64(bytes)).toBe(Buffer.from(text).toString('base64'));
    expect(toBase64Url(bytes)).toBe(Buffer.from(text).toString('base64url'));
    expect(
      Buffer.from(defined(fromBase64Url(toBase64Url(bytes)), 'fromBase64Url(toBase64Url(bytes))')).equals(
        Buffer.from(bytes),
      ),
    ).toBe(true);
    expect(toHex(bytes)).toBe(Buffer.from(text).toString('hex'));
    expect(toBase64(sha256(text))).toBe(createHash('sha256').update(text).digest('base64'));
    expect(sha256Base64(text)).toBe(createHash('sha256').update(text).digest('base64'));
  });

  it('should read latin1 both ways and concatenate', () => {
    const bytes = Uint8Array.from([0x63, 0x61, 0x66, 0xc3, 0xa9, 0xff]);
    expect(latin1Decode(bytes)).toBe(Buffer.from(bytes).toString('latin1'));
    expect(Buffer.from(latin1Encode(latin1Decode(bytes))).equals(Buffer.from(bytes))).toBe(true);
    expect(utf8Decode(Uint8Array.from([0xc3]))).toBe('\ufffd');
    expect(Array.from(concatBytes([bytes.subarray(0, 2), bytes.subarray(2)], 6))).toEqual(Array.from(bytes));
  });

  it('should hash every length around a block boundary as Node does', () => {
    for (let n = 50; n < 140; n++) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
      expect(toHex(sha256(data))).toBe(createHash('sha256').update(data).digest('hex'));
    }
  });

  it('should compare in constant time and refuse other lengths', () => {
    expect(equalInConstantTime(utf8Encode('abc'), utf8Encode('abc'))).toBe(true);
    expect(equalInConstantTime(utf8Encode('abc'), utf8Encode('abd'))).toBe(false);
    expect(equalInConstantTime(utf8Encode('abc'), utf8Encode('ab'))).toBe(false);
    expect(fromBase64Url('not base64!')).toBeUndefined();
  });
});
