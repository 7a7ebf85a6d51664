import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildDocs, type BuiltDocs, findExternalResources } from './build-docs';
import { dumpDom, findChromium, remoteRequests } from './chromium';
import { escapeHtml, renderMarkdown } from './render-reference';
import { dereferenceFile, listOperationObjects } from '../../../spec/lib';

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

  (chromium.bin ? it : it.skip)('should list every operation when opened from disk in headless Chromium, offline', async () => {
    const { dom, requestedUrls, consoleErrors } = await dumpDom(chromium.bin!, pathToFileURL(built.output).href);
    const operations = listOperationObjects(dereferenceFile(SPEC));
    expect(operations.length).toBeGreaterThan(0);
    const missing = operations.filter(({ operation }) => {
      const id = String(operation.operationId);
      return !dom.includes(`id="operation/${escapeHtml(id)}"`) || !dom.includes(escapeHtml(operation.summary ?? id));
    }).map((op) => op.key);
    expect(missing).toEqual([]);
    expect(remoteRequests(requestedUrls)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  }, 120_000);
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
