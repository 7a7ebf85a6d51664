import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildDocs, type BuiltDocs, findExternalResources } from './build-docs';
import { dumpDom, findChromium, remoteRequests } from './chromium';
import { escapeHtml, renderMarkdown } from './render-reference';
import { curlTemplate, fillSnippet, openapiFetchTemplate, TYPES_MODULE } from './try-it';
import ts from 'typescript';
import { dereferenceFile, listOperations } from '../../../spec/lib';
import { startMock, type RunningMock } from '../../../mocks/app';

const ROOT = join(__dirname, '..', '..', '..');
const SPEC = join(ROOT, 'spec', 'openapi.yaml');

const chromium = findChromium(ROOT);
// CI must prove the page renders; elsewhere a machine without Chromium skips with the reason.
if (!chromium.bin && process.env.CI) throw new Error(`Chromium is required on CI: ${chromium.reason}`);
if (!chromium.bin) console.warn(`docs render test skipped: ${chromium.reason}`);

describe('npm run docs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docs-test-'));
  let built: BuiltDocs;

  beforeAll(async () => {
    built = await buildDocs({ spec: SPEC, output: join(dir, 'index.html'), root: ROOT, redoc: true });
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should build single files that load no remote scripts, styles, fonts or images', () => {
    expect(findExternalResources(readFileSync(built.output, 'utf8'))).toEqual([]);
    const redoc = readFileSync(built.redoc!.output, 'utf8');
    expect(findExternalResources(redoc)).toEqual([]);
    expect(redoc).toContain('"disableTelemetry":true');
    expect(redoc).not.toContain('cdn.redoc.ly');
  });

  (chromium.bin ? it : it.skip)(
    'should list every operation when opened from disk in headless Chromium, offline',
    async () => {
      const { dom, requestedUrls, consoleErrors } = await dumpDom(chromium.bin!, pathToFileURL(built.output).href);
      const operations = listOperations(dereferenceFile(SPEC));
      expect(operations.length).toBeGreaterThan(0);
      const missing = operations
        .filter(({ node: operation }) => {
          const id = String(operation.operationId);
          return (
            !dom.includes(`id="operation/${escapeHtml(id)}"`) || !dom.includes(escapeHtml(operation.summary ?? id))
          );
        })
        .map((op) => `${op.method} ${op.path}`);
      expect(missing).toEqual([]);
      expect(remoteRequests(requestedUrls)).toEqual([]);
      expect(consoleErrors).toEqual([]);
    },
    120_000,
  );
});

describe('reference page markdown', () => {
  it.each([
    ['should escape HTML', 'a <b> & c', '<p>a &lt;b&gt; &amp; c</p>'],
    ['should render code and bold', '**Bold** `x < y`', '<p><strong>Bold</strong> <code>x &lt; y</code></p>'],
    ['should render lists', '- one\n- two', '<ul><li>one</li><li>two</li></ul>'],
    ['should split paragraphs', 'a\nb\n\nc', '<p>a b</p>\n<p>c</p>'],
  ])('%s', (_name, given, want) => {
    expect(renderMarkdown(given)).toBe(want);
  });
});

describe('try-it snippets', () => {
  const operations = listOperations(dereferenceFile(SPEC));
  const chosen = { base: 'http://127.0.0.1:5001/v1', token: "it's-a-token", prefer: 'code=404' };

  it('should import the types from the package this repository publishes', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; exports: object };
    expect(TYPES_MODULE).toBe(`${pkg.name}/types`);
    expect(Object.keys(pkg.exports)).toContain('./types');
  });

  it.each(operations.map((op) => [op.operationId, op] as const))(
    'should give a curl line for %s that a shell reads as the chosen URL, token and Prefer',
    (_id, op) => {
      const words = execFileSync(
        'sh',
        ['-c', `${fillSnippet(curlTemplate(op), chosen).replace(/^curl/, "printf '%s\\n'")}`],
        {
          encoding: 'utf8',
        },
      ).split('\n');
      expect(words[3]).toMatch(new RegExp(`^${chosen.base.replace(/[.]/g, '\\.')}/`));
      expect(words).toContain(`Authorization: Bearer ${chosen.token}`);
      expect(words).toContain(`Prefer: ${chosen.prefer}`);
    },
  );

  it('should give openapi-fetch calls that compile against the generated types, with the chosen token and Prefer', () => {
    const dir = join(ROOT, 'generators', 'generated');
    const files = new Map(
      operations.flatMap((op, index) =>
        [chosen, { ...chosen, prefer: '' }].map((values, variant) => [
          join(dir, `snippet-${index}-${variant}.ts`),
          `export {};\n${fillSnippet(openapiFetchTemplate(op, TYPES_MODULE), values)}\n`,
        ]),
      ),
    );
    const options: ts.CompilerOptions = {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      types: [],
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      paths: { [TYPES_MODULE]: [join(dir, 'openapi.ts')] },
    };
    const host = ts.createCompilerHost(options);
    const { readFile, getSourceFile, fileExists } = host;
    host.fileExists = (name) => files.has(name) || fileExists.call(host, name);
    host.readFile = (name) => files.get(name) ?? readFile.call(host, name);
    host.getSourceFile = (name, language, ...rest) => {
      const text = files.get(name);
      return text === undefined
        ? getSourceFile.call(host, name, language, ...rest)
        : ts.createSourceFile(name, text, language);
    };
    const program = ts.createProgram([...files.keys()], options, host);
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(errors).toEqual([]);
    expect([...files.values()].join('')).toContain(`'Bearer it\\'s-a-token'`);
  }, 60_000);
});

describe('reference page in use (search, examples, shared responses, try-it against a running mock)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docs-tryit-'));
  let page: string;
  let html: string;
  let mock: RunningMock;

  beforeAll(async () => {
    page = join(dir, 'index.html');
    await buildDocs({ spec: SPEC, output: page, root: ROOT });
    html = readFileSync(page, 'utf8');
    mock = await startMock({ port: 0 });
  }, 120_000);
  afterAll(async () => {
    await mock?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('should render every named example of the spec, once per place it is declared', () => {
    const api = dereferenceFile(SPEC);
    const names: string[] = [];
    for (const { node: operation } of listOperations(api)) {
      for (const response of Object.values(
        (operation.responses ?? {}) as Record<string, { content?: Record<string, { examples?: object }> }>,
      )) {
        for (const media of Object.values(response.content ?? {})) names.push(...Object.keys(media.examples ?? {}));
      }
    }
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(html).toContain(`example: ${escapeHtml(name)}`);
  });

  it('should show each shared error response once and link to it from the operations', () => {
    expect(html.match(/id="response\/BadRequest"/g)).toHaveLength(1);
    expect(html).toContain('<a class="ref" href="#response/TooManyRequests">TooManyRequests</a>');
    expect(html).not.toContain('>^(?:[0-9a-fA-F]{8}');
    expect(html).toContain('matches the <a class="ref" href="#schema/Uuid">Uuid</a> rule');
  });

  it('should give every operation a try-it form with curl and openapi-fetch snippets', () => {
    const operations = listOperations(dereferenceFile(SPEC));
    for (const { node: operation } of operations)
      expect(html).toContain(`data-operation="${escapeHtml(String(operation.operationId))}"`);
    expect(html.match(/<h5>curl<\/h5>/g)).toHaveLength(operations.length);
    expect(html.match(/<h5>openapi-fetch<\/h5>/g)).toHaveLength(operations.length);
  });

  (chromium.bin ? it : it.skip)(
    'should filter by search and call the running mock from the page, offline otherwise',
    async () => {
      const url = `${pathToFileURL(page).href}?base=${encodeURIComponent(mock.url)}&token=mock-token-a&run=listSuppressions&q=suppressions`;
      const { dom, requestedUrls, consoleErrors } = await dumpDom(chromium.bin!, url, 90_000, { allowLoopback: true });
      const result = /<pre class="try-result"[^>]*data-status="(\d+)"[^>]*>([\s\S]*?)<\/pre>/.exec(dom);
      expect(result?.[1]).toBe('200');
      expect(result?.[2]).toContain('ratelimit-limit');
      expect(result?.[2]).toContain('"suppressions"');
      expect(dom).toMatch(/id="search-count"[^>]*>\d+ operation\(s\) match/);
      expect(dom).toMatch(/<article class="operation" id="operation\/getRun" hidden/);
      expect(requestedUrls.some((u) => u.startsWith(`${mock.url}/mailboxManagement/suppressions`))).toBe(true);
      expect(remoteRequests(requestedUrls)).toEqual([]);
      expect(consoleErrors).toEqual([]);
    },
    120_000,
  );

  (chromium.bin ? it : it.skip)(
    'should keep a linked operation shown whatever the search, with snippets and Prefer as the link chose',
    async () => {
      // The README's link: a search for `runs` with the suppressions list open (its text never says "runs").
      const article = (dom: string, id: string) =>
        new RegExp(`<article class="operation" id="operation/${id}"[^>]*>[\\s\\S]*?</article>`).exec(dom)?.[0] ?? '';
      expect(
        article(html, 'listSuppressions')
          .replace(/<[^>]+>/g, '')
          .toLowerCase(),
      ).not.toContain('runs');
      // Not one of the presets: the page adds it to every form's list.
      const prefer = 'latency=1, example=empty';
      expect(html).not.toContain(`<option value="${prefer}">`);
      const url = `${pathToFileURL(page).href}?q=runs&run=listSuppressions&base=${encodeURIComponent(`${mock.url}/`)}&token=mock-token-b&prefer=${encodeURIComponent(prefer)}`;
      const { dom, consoleErrors } = await dumpDom(chromium.bin!, url, 90_000, { allowLoopback: true });
      const linked = article(dom, 'listSuppressions');
      expect(linked).toMatch(/^<article class="operation" id="operation\/listSuppressions">/);
      expect(dom).toMatch(/<article class="operation" id="operation\/getModel" hidden/);
      expect(dom).toMatch(/id="search-count"[^>]*>\d+ operation\(s\) match, and the linked one is shown/);
      const result = /<pre class="try-result"[^>]*data-status="(\d+)"[^>]*>([\s\S]*?)<\/pre>/.exec(linked);
      expect(result?.[1]).toBe('200');
      expect(result?.[2]).toMatch(/"count": 0/);
      const fills = [...linked.matchAll(/<span data-fill="(\w+)" data-quote="([\w-]+)">([^<]*)<\/span>/g)].map(
        ([, fill, quoting, text]) => `${fill}:${quoting}=${text}`,
      );
      expect(fills).toEqual([
        `base:sh=${mock.url}`,
        'token:sh=mock-token-b',
        "prefer:prefer-sh= \\\n  -H 'Prefer: latency=1, example=empty'",
        `base:js=${mock.url}`,
        'token:js=mock-token-b',
        "prefer:prefer-js-init=, { headers: { Prefer: 'latency=1, example=empty' } }",
      ]);
      expect(consoleErrors).toEqual([]);
    },
    120_000,
  );
});
