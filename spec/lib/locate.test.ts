import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { blockYamlOffsets, composedYamlOffsets, lineOfOffset, lineStarts, scanJsonOffsets } from './locate';
import { parseDocumentText } from './load';
import { escapeToken } from './pointer';

const ROOT = join(__dirname, '..', '..');

/** Every pointer of a document, containers and leaves, and one past each container (a member it lacks). */
function pointersOf(value: unknown, at = '', out: string[] = []): string[] {
  out.push(at);
  if (value && typeof value === 'object') {
    out.push(`${at}/no-such-member`);
    for (const [k, v] of Object.entries(value)) pointersOf(v, `${at}/${escapeToken(k)}`, out);
  }
  return out;
}

const yamlFiles = [
  join(ROOT, 'spec', 'openapi.yaml'),
  ...readdirSync(join(ROOT, 'scripts', 'fixtures', 'diff'))
    // The hostile pair is written to break every format, its YAML layout included: the full parse reads it.
    .filter((d) => !d.endsWith('.yaml') && d !== 'hostile')
    .map((d) => join(ROOT, 'scripts', 'fixtures', 'diff', d, 'head.yaml')),
];

describe('line locator', () => {
  it.each(yamlFiles.map((f) => [f.slice(ROOT.length + 1), f]))(
    'should place every pointer of %s where the full YAML parse does',
    (_name, file) => {
      const text = readFileSync(file, 'utf8');
      const fast = blockYamlOffsets(text);
      // The contract must take the fast path (start-up time); a fixture outside its domain is read in full.
      if (file.endsWith(join('spec', 'openapi.yaml'))) expect(fast).toBeDefined();
      if (!fast) return;
      const full = composedYamlOffsets(text);
      // Lines, not offsets: inside a one-line flow collection (`enum: [a, b]`) the line is what is shown.
      const starts = lineStarts(text);
      const line = (offset: number | undefined) => (offset === undefined ? undefined : lineOfOffset(starts, offset));
      const wrong = pointersOf(parseDocumentText(text)).filter((p) => line(fast!(p)) !== line(full(p)));
      expect(wrong.slice(0, 5)).toEqual([]);
    },
  );

  it('should follow an alias to its anchor as the full parse does', () => {
    const text = 'a: &x\n  b: 1\nc:\n  d: *x\ne:\n- f: 1\n  g: *x\n';
    const fast = blockYamlOffsets(text)!;
    const full = composedYamlOffsets(text);
    for (const p of ['/a', '/a/b', '/c/d', '/c/d/b', '/c/d/zz', '/e/0/g', '/e/0/g/b', '/e/0/f'])
      expect([p, fast(p)]).toEqual([p, full(p)]);
  });

  it('should leave other anchors and aliases, and multi-line flow collections to the full parse', () => {
    expect(blockYamlOffsets('a: &x [1]\nc: *x\n')).toBeUndefined();
    expect(blockYamlOffsets('- &x\n  b: 1\n')).toBeUndefined();
    expect(blockYamlOffsets('a: {\n  b: 1 }\n')).toBeUndefined();
    expect(blockYamlOffsets('{a: 1}\n')).toBeUndefined();
  });

  it('should scan JSON for the pointers asked and skip the rest', () => {
    const text = '{\n  "a": {"b": [1, {"c": "x\\"y"}]},\n  "d": 2\n}';
    const found = scanJsonOffsets(text, new Set(['/a', '/a/b', '/a/b/1', '/a/b/1/c', '/d']));
    expect([...found].map(([p, o]) => [p, text.slice(o, o + 3)])).toEqual([
      ['', '{\n '],
      ['/a', '"a"'],
      ['/a/b', '"b"'],
      ['/a/b/1', '{"c'],
      ['/a/b/1/c', '"c"'],
      ['/d', '"d"'],
    ]);
  });
});
