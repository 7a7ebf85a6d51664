import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findUnsafeLookups } from './dictionary-lookups';

const mocksDir = path.join(__dirname, '..');
const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(at);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [at] : [];
  });

describe('dictionary lookups with string keys (prototype keys such as constructor, __proto__)', () => {
  it('should find none on plain objects anywhere in the mock: Maps or SafeDict instead', () => {
    const found = findUnsafeLookups(path.join(mocksDir, '..'), sources(mocksDir));
    expect(found.map((hit) => `${hit.file}:${hit.line} ${hit.text}`)).toEqual([]);
  });

  it('should catch a lookup and a write on a plain Record, and spare a Map, a SafeDict and an exempted line', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dict-lookups-'));
    const file = path.join(dir, 'sample.ts');
    writeFileSync(
      file,
      [
        'type SafeDict<T> = Record<string, T> & { readonly __nullPrototype?: true };',
        'export function sample(key: string, tokens: Record<string, string>, safe: SafeDict<string>, map: Map<string, string>) {',
        '  const found = tokens[key];',
        "  tokens[key] = 'x';",
        '  // dictionary-lookup: a constant key set',
        '  const exempt = tokens[key];',
        '  return [found, exempt, safe[key], map.get(key), tokens.literal];',
        '}',
      ].join('\n'),
    );
    expect(findUnsafeLookups(dir, [file]).map((hit) => hit.line)).toEqual([3, 4]);
  });
});
