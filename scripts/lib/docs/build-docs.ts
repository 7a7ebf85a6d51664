// Two single-file pages. index.html: the static reference (render-reference.ts), every operation on one page,
// no scripts, opens from disk. redoc.html: `redocly build-docs --inlineBundle` (Redoc 3, scripts embedded, no CDN)
// with its browser telemetry off and the one remote image it loads (its logo) inlined; Redoc 3 routes tag pages
// by URL path, so it is meant to be served (any static server), not opened from disk. Redocly reads the document
// the loader bundled and checked (every $ref internal), never the spec's own files: it would follow a $ref anywhere.

import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { renderReference } from './render-reference';
import { outsideReference } from '../diff/redocly-cross-check';
import { bundleFile, dereferenceFile, isObject, type Json, type JsonObject } from '../../../spec/lib';

export type BuildDocsOptions = {
  spec: string;
  /** The static reference page; redoc.html is written beside it. */
  output: string;
  root: string;
  /** Also build the Redoc page (needs @redocly/cli). */
  redoc?: boolean;
};
export type BuiltDocs = { output: string; bytes: number; redoc?: { output: string; bytes: number } };

/** Remote assets the Redoc bundle loads at run time, and what the page uses instead. */
const INLINED_ASSETS: Array<[RegExp, string]> = [
  [
    /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(-full)?\.svg/g,
    `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="90" height="16"><text x="0" y="12" font-family="sans-serif" font-size="11" fill="#888">Redocly</text></svg>')}`,
  ],
];

/** Markup that would make the browser fetch from the network: external scripts, stylesheets, fonts, images. */
const EXTERNAL_RESOURCE = [
  /<script\b[^>]*\bsrc\s*=\s*["']?(?:https?:)?\/\//i,
  /<link\b[^>]*\bhref\s*=\s*["']?(?:https?:)?\/\//i,
  /<img\b[^>]*\bsrc\s*=\s*["']?(?:https?:)?\/\//i,
  /url\(\s*["']?(?:https?:)?\/\//i,
  /@import\s+["'](?:https?:)?\/\//i,
];

export function findExternalResources(html: string): string[] {
  return EXTERNAL_RESOURCE.flatMap((pattern) => {
    const match = pattern.exec(html);
    return match ? [html.slice(match.index, match.index + 120)] : [];
  });
}

export function inlineRemoteAssets(html: string): string {
  return INLINED_ASSETS.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), html);
}

function run(bin: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    execFile(
      process.execPath,
      [bin, ...args],
      {
        cwd,
        maxBuffer: 64 * 1024 * 1024,
        // REDOCLY_TELEMETRY=off keeps the CLI offline and sets the page's `disableTelemetry`.
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
      (error, stdout, stderr) =>
        error ? reject(new Error(`redocly build-docs failed: ${stderr || error.message}`)) : resolvePromise(stdout),
    );
  });
}

/**
 * A description (CommonMark) whose raw HTML and images a browser would act on, made inert for Redoc: outside the code
 * spans of a line, `<` is written `&lt;` (no tag, comment or autolink; shown as `<`) and `![` as `!\[` (no image to
 * fetch; shown as written). A code span is taken as one only within its line, so no blank line, HTML block or
 * backslash escape the renderer reads differently can leave a `<` outside it unescaped.
 */
export function inertMarkdown(text: string): string {
  return text
    .split(/(\r\n|\r|\n)/)
    .map((line, i) => (i % 2 === 1 ? line : inertLine(line)))
    .join('');
}

function inertLine(line: string): string {
  let out = '';
  let i = 0;
  while (i < line.length) {
    const c = line[i];
    if (c === '\\') {
      out += line.slice(i, i + 2);
      i += 2;
    } else if (c === '`') {
      let run = '`';
      while (line[i + run.length] === '`') run += '`';
      const close = closingRun(line, i + run.length, run.length);
      const end = close === -1 ? i + run.length : close + run.length;
      out += line.slice(i, end);
      i = end;
    } else if (c === '<') {
      out += '&lt;';
      i += 1;
    } else if (c === '!' && line[i + 1] === '[') {
      out += '!\\[';
      i += 2;
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

/** Where a run of exactly `length` backticks starts at or after `from`, or -1 (CommonMark code span ends). */
function closingRun(line: string, from: number, length: number): number {
  const runs = /`+/g;
  runs.lastIndex = from;
  for (let m = runs.exec(line); m; m = runs.exec(line)) if (m[0].length === length) return m.index;
  return -1;
}

/** Values shown as data, not markdown: left as written. */
const DATA_KEYS = new Set(['example', 'examples', 'default', 'enum', 'const', 'value']);

/**
 * The checked bundle as redocly build-docs may read it. Redocly fetches an Example's `externalValue` while it builds
 * (a request from the machine that builds the docs) and would resolve a `$ref`, `$dynamicRef` or `$id` base outside
 * the bundle: externalValue is dropped and the others refused, by the rule the diff's cross-check uses. Redoc's page
 * renders descriptions' raw HTML and images in the reader's browser (its `sanitize` option cannot run in this build):
 * every description is made inert (inertMarkdown).
 */
export function readyForRedoc(document: JsonObject): JsonObject {
  const outside = outsideReference(document);
  if (outside) throw new Error(`the Redoc page is not built: the bundle is not self-contained (${outside})`);
  const visit = (node: Json, key: string | undefined): Json => {
    if (key !== undefined && DATA_KEYS.has(key)) return node;
    if (Array.isArray(node)) return node.map((item) => visit(item, undefined));
    if (!isObject(node)) return node;
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(node)) {
      const value = k === 'description' && typeof v === 'string' ? inertMarkdown(v) : visit(v, k);
      Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
  return visit(document, undefined) as JsonObject;
}

async function buildRedoc(spec: string, output: string, root: string): Promise<{ output: string; bytes: number }> {
  const cli = join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
  const document = readyForRedoc(bundleFile(spec));
  const folder = mkdtempSync(join(tmpdir(), 'docs-bundle-'));
  try {
    const bundled = join(folder, 'openapi.json');
    writeFileSync(bundled, JSON.stringify(document));
    await run(cli, ['build-docs', bundled, '--inlineBundle', '--lint-config', 'off', '-o', output], root);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  const html = inlineRemoteAssets(readFileSync(output, 'utf8'));
  if (!html.includes('"disableTelemetry":true')) throw new Error('the Redoc page has its telemetry enabled');
  const external = findExternalResources(html);
  if (external.length > 0) throw new Error(`the Redoc page loads remote resources:\n${external.join('\n')}`);
  writeFileSync(output, html);
  return { output, bytes: Buffer.byteLength(html) };
}

export async function buildDocs(options: BuildDocsOptions): Promise<BuiltDocs> {
  const spec = resolve(options.root, options.spec);
  const output = resolve(options.root, options.output);
  mkdirSync(dirname(output), { recursive: true });
  const html = renderReference(dereferenceFile(spec), relative(options.root, spec) || spec);
  const external = findExternalResources(html);
  if (external.length > 0) throw new Error(`the reference page loads remote resources:\n${external.join('\n')}`);
  writeFileSync(output, html);
  const built: BuiltDocs = { output, bytes: Buffer.byteLength(html) };
  if (options.redoc) built.redoc = await buildRedoc(spec, join(dirname(output), 'redoc.html'), options.root);
  return built;
}
