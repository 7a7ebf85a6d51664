import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ATTACKS, makeSpecBesideASecret, type BesideASecret } from './fixtures/hostile/beside-a-secret';
import {
  bundleFile,
  DEFAULT_SPEC_PATH,
  dereferenceDocument,
  dereferenceFile,
  makeLineLocator,
  parseDocumentText,
  SPEC_LIMITS,
  SpecRefused,
  type RefusalCode,
  type SpecLimits,
} from './load';
import { asObject, type JsonObject } from './json';
import { getAtPointer } from './pointer';
import { loadContract } from './contract';

const SPLIT = join(__dirname, 'fixtures', 'split', 'openapi.yaml');

describe('bundleFile', () => {
  it('should bundle split files into one document whose $refs are all internal', () => {
    const bundled = bundleFile(SPLIT);
    const refs: string[] = [];
    const walk = (node: unknown) => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        for (const [k, v] of Object.entries(node)) {
          if (k === '$ref') refs.push(v as string);
          else walk(v);
        }
      }
    };
    walk(bundled);
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.every((ref) => ref.startsWith('#/'))).toBe(true);
    // The split schema lands where components name it, and its self-reference points there.
    expect(getAtPointer(bundled, '#/components/schemas/Node/properties/children/items')).toEqual({
      $ref: '#/components/schemas/Node',
    });
    expect(getAtPointer(bundled, '#/components/schemas/Node/properties/sibling/properties/parent')).toEqual({
      $ref: '#/components/schemas/Node',
    });
  });

  it('should name the file and the reference that point at nothing', () => {
    const missing = join(__dirname, 'fixtures', 'missing-ref.yaml');
    expect(() => bundleFile(missing)).toThrow(/cannot read .*nowhere\.yaml/);
  });
});

describe('dereferenceDocument', () => {
  const document = {
    components: {
      schemas: {
        Tree: {
          type: 'object',
          properties: { children: { type: 'array', items: { $ref: '#/components/schemas/Tree' } } },
        },
        Error: { type: 'object' },
        Uses: {
          properties: {
            a: { $ref: '#/components/schemas/Error' },
            b: { $ref: '#/components/schemas/Error', description: 'b' },
          },
        },
      },
    },
  };

  const items = (tree: unknown) => getAtPointer(tree, '/properties/children/items');
  it.each([
    ['object', (tree: unknown) => expect(items(tree)).toBe(tree)],
    ['ref', (tree: unknown) => expect(items(tree)).toEqual({ $ref: '#/components/schemas/Tree' })],
  ] as const)('should turn a cycle into %s', (cycles, check) => {
    check(getAtPointer(dereferenceDocument(document as JsonObject, cycles), '/components/schemas/Tree'));
  });

  it('should share one object per target and merge siblings of $ref into a copy', () => {
    const schemas = asObject(
      getAtPointer(dereferenceDocument(document as JsonObject, 'object'), '/components/schemas'),
    );
    expect(getAtPointer(schemas, '/Uses/properties/a')).toBe(schemas.Error);
    expect(getAtPointer(schemas, '/Uses/properties/b')).toEqual({ type: 'object', description: 'b' });
    expect(getAtPointer(schemas, '/Uses/properties/b')).not.toBe(schemas.Error);
  });
});

describe('loadContract on split files', () => {
  it('should read the base path from the server URL with its variables and see operations of split path items', () => {
    const contract = loadContract(SPLIT);
    expect(contract.basePath).toBe('/v2');
    expect(contract.operations.map((op) => [op.operationId, op.parameters.map((p) => p.name)])).toEqual([
      ['getNode', ['uuid']],
    ]);
    expect(loadContract(SPLIT)).toBe(contract);
  });

  it('should validate recursive schemas across files', () => {
    const contract = loadContract(SPLIT);
    const observed = (body: unknown, status = 200) => ({
      method: 'GET',
      path: '/nodes/x',
      status,
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(
      contract.validateResponse(observed({ name: 'a', children: [{ name: 'b', sibling: { parent: { name: 'c' } } }] })),
    ).toEqual([]);
    expect(
      contract
        .validateResponse(observed({ children: [{ sibling: { parent: { name: 'long' } } }] }))
        .map((v) => v.message),
    ).toEqual(['body.children.0.sibling.parent.name: must NOT have more than 3 characters']);
    expect(contract.validateResponse(observed({ errorMessage: 'gone' }, 404))).toEqual([]);
  });
});

// The loader as the door for specs nobody here controls (spec/lib/refusal.ts): the hostile corpus, a spec beside a
// secret it must not read, a server it must not call, and the bounds.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fs: typeof import('node:fs') = require('node:fs');

const HOSTILE = join(__dirname, 'fixtures', 'hostile');
const HOSTILE_CASES = fs
  .readdirSync(HOSTILE)
  .filter((name) => /\.(ya?ml|json)$/.test(name))
  .map((name) => [name, name.split('--')[0]] as const);

/** What a load throws, or undefined. */
function thrownBy(load: () => unknown): unknown {
  try {
    load();
  } catch (error) {
    return error;
  }
  return undefined;
}

function expectRefusal(error: unknown, code: RefusalCode): SpecRefused {
  expect(error).toBeInstanceOf(SpecRefused);
  const refused = error as SpecRefused;
  expect([refused.code, refused.message]).toEqual([code, expect.any(String)]);
  expect(refused.message).not.toMatch(/[\n\r\u2028\u2029\x1b]/);
  expect(refused.message.startsWith(`${refused.file}#`)).toBe(true);
  expect(refused.pointer).toMatch(/^#/);
  return refused;
}

describe('the hostile corpus (fixtures/hostile: one file per attack, its code before --)', () => {
  it('should hold a case of every refusal but the byte and file-count bounds (tested below with small bounds)', () => {
    const codes = new Set(HOSTILE_CASES.map(([, code]) => code));
    const all: RefusalCode[] = ['remote', 'outside', 'unreadable', 'syntax', 'aliases', 'depth', 'expansion'];
    expect(all.filter((code) => !codes.has(code))).toEqual([]);
    expect(['cycle', 'missing-target'].filter((code) => !codes.has(code as RefusalCode))).toEqual([]);
  });

  it.each(HOSTILE_CASES)('should refuse %s (%s) within 5 s, bundled or dereferenced', (name, code) => {
    for (const load of [bundleFile, (file: string) => dereferenceFile(file)]) {
      const started = performance.now();
      const refused = expectRefusal(
        thrownBy(() => load(join(HOSTILE, name))),
        code as RefusalCode,
      );
      expect(performance.now() - started).toBeLessThan(5000);
      expect(refused.file.startsWith(fs.realpathSync(HOSTILE))).toBe(true);
    }
  });
});

describe('a spec beside a secret and a server', () => {
  let place: BesideASecret;
  beforeAll(async () => (place = await makeSpecBesideASecret()));
  afterAll(() => place.close());

  /** Every path the loader opened or read while `load` ran. */
  const pathsRead = (load: () => unknown): string[] => {
    const seen: string[] = [];
    const spies = [jest.spyOn(fs, 'openSync'), jest.spyOn(fs, 'readFileSync')];
    try {
      load();
    } catch {
      // the refusal is checked by the caller
    } finally {
      for (const spy of spies) {
        for (const [path] of spy.mock.calls) seen.push(String(path));
        spy.mockRestore();
      }
    }
    return seen;
  };

  it.each(ATTACKS)('should refuse %s, reading nothing outside the folder', (_name, ref, code) => {
    const file = place.specWith(ref(place));
    for (const load of [() => bundleFile(file), () => dereferenceFile(file)]) {
      let error: unknown;
      const read = pathsRead(() => {
        error = thrownBy(load);
        throw error;
      });
      const refused = expectRefusal(error, code);
      expect(refused.pointer).toBe('#/components/schemas/Leak/$ref');
      expect(refused.message).not.toContain(place.secret);
      expect(read.filter((path) => !path.startsWith(`${place.folder}/`))).toEqual([]);
    }
    expect(place.requests).toEqual([]);
  });

  it('should locate lines with the same bounds: a FIFO refused without a hang, 20 000 nested sequences before the parser', () => {
    expectRefusal(
      thrownBy(() => makeLineLocator(join(place.folder, 'fifo.yaml'))),
      'unreadable',
    );
    const locate = makeLineLocator(join(HOSTILE, 'depth--flow-nesting.yaml'));
    expectRefusal(
      thrownBy(() => locate('#/x')),
      'depth',
    );
    expect(makeLineLocator(DEFAULT_SPEC_PATH)('#/paths')).toBeGreaterThan(1);
    // Past maxTokens (a large one-line JSON spec) a file has no lines rather than no lint.
    expect(makeLineLocator(DEFAULT_SPEC_PATH, { ...SPEC_LIMITS, maxTokens: 1000 })('#/paths')).toBeUndefined();
  });

  it('should refuse an entry that is itself a symlink out of its folder, reading nothing outside', () => {
    const entry = join(place.folder, 'entry-link.yaml');
    if (!fs.existsSync(entry)) fs.symlinkSync(place.outside, entry);
    for (const load of [() => bundleFile(entry), () => dereferenceFile(entry)]) {
      let error: unknown;
      const read = pathsRead(() => {
        error = thrownBy(load);
        throw error;
      });
      expect(expectRefusal(error, 'outside').file).toBe(entry);
      expect(read.filter((path) => !path.startsWith(`${place.folder}/`))).toEqual([]);
    }
  });

  it('should follow a symlink that stays inside the folder (and see what it reads)', () => {
    const file = place.specWith('./inside-link.yaml#/Inside');
    let bundled: JsonObject | undefined;
    expect(pathsRead(() => (bundled = bundleFile(file)))).toEqual([file, join(place.folder, 'parts', 'inside.yaml')]);
    expect(bundled!.components).toEqual({ schemas: { Leak: { type: 'string' } } });
  });
});

describe('the bounds', () => {
  const withLimits = (limits: Partial<SpecLimits>) => ({ ...SPEC_LIMITS, ...limits });
  let scratch: string;
  const TMPDIR = process.env.TMPDIR;
  beforeAll(() => {
    scratch = fs.mkdtempSync(join(tmpdir(), 'bounds-'));
    process.env.TMPDIR = scratch; // the parse cache of the fresh copies goes there, and away with it
  });
  afterAll(() => {
    if (TMPDIR === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = TMPDIR;
    fs.rmSync(scratch, { recursive: true, force: true });
  });
  /** A copy of the contract no parse has cached, so the YAML bounds are met. */
  const freshContract = () => {
    const copy = join(fs.mkdtempSync(join(scratch, 'c-')), 'openapi.yaml');
    fs.writeFileSync(copy, `${fs.readFileSync(DEFAULT_SPEC_PATH, 'utf8')}\n# ${Math.random()}\n`);
    return copy;
  };

  /** The contract bundled, as one JSON file (read by JSON.parse, not by yaml). */
  const contractAsJson = () => {
    const copy = join(fs.mkdtempSync(join(scratch, 'j-')), 'openapi.json');
    fs.writeFileSync(copy, JSON.stringify(bundleFile(DEFAULT_SPEC_PATH)));
    return copy;
  };
  it('should load the contract within a fifth of every bound (the headroom)', () => {
    const fifth = Object.fromEntries(
      Object.entries(SPEC_LIMITS).map(([key, value]) => [key, Math.floor(value / 5)]),
    ) as SpecLimits;
    const contract = freshContract();
    expect(bundleFile(contract, fifth)).toEqual(bundleFile(DEFAULT_SPEC_PATH));
    expect(dereferenceFile(contract, undefined, fifth).openapi).toBe('3.1.0');
  });

  it.each([
    ['a file over maxFileBytes', { maxFileBytes: 1000 }, DEFAULT_SPEC_PATH, 'size'],
    ['files together over maxTotalBytes', { maxTotalBytes: 700 }, SPLIT, 'size'],
    ['more files than maxFiles', { maxFiles: 1 }, SPLIT, 'files'],
    ['aliases over maxAliasCount', { maxAliasCount: 5 }, DEFAULT_SPEC_PATH, 'aliases'],
    ['nesting over maxDepth', { maxDepth: 10 }, DEFAULT_SPEC_PATH, 'depth'],
    ['an expansion over maxNodes', { maxNodes: 1000 }, DEFAULT_SPEC_PATH, 'expansion'],
    ['YAML objects and arrays over maxObjects', { maxObjects: 1000 }, DEFAULT_SPEC_PATH, 'size'],
    ['split files together over maxObjects', { maxObjects: 12 }, SPLIT, 'size'],
    ['YAML tokens over maxTokens (counted before the parse)', { maxTokens: 10_000 }, DEFAULT_SPEC_PATH, 'size'],
    ['JSON objects and arrays over maxObjects (counted before JSON.parse)', { maxObjects: 1000 }, 'json', 'size'],
  ] as const)('should refuse %s', (_name, limits, file, code) => {
    const copy = file === DEFAULT_SPEC_PATH ? freshContract() : file === 'json' ? contractAsJson() : file;
    expectRefusal(
      thrownBy(() => bundleFile(copy, withLimits(limits))),
      code,
    );
  });

  it('should keep a __proto__ member as a member, not as the prototype', () => {
    const document = parseDocumentText('{"openapi": "3.1.0", "x-a": {"__proto__": {"polluted": true}}}');
    const file = join(fs.mkdtempSync(join(scratch, 'p-')), 'openapi.json');
    fs.writeFileSync(file, JSON.stringify(document));
    const dereferenced = dereferenceFile(file);
    expect(Object.keys(asObject(dereferenced['x-a']))).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(dereferenced['x-a'])).toBe(Object.prototype);
  });

  it('should name the text it refuses when it has no file', () => {
    expectRefusal(
      thrownBy(() => parseDocumentText(fs.readFileSync(join(HOSTILE, 'aliases--billion-laughs.yaml'), 'utf8'))),
      'aliases',
    );
  });
});
