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
import { bundleFile, dereferenceFile } from '../../../spec/lib';

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

async function buildRedoc(spec: string, output: string, root: string): Promise<{ output: string; bytes: number }> {
  const cli = join(root, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
  const folder = mkdtempSync(join(tmpdir(), 'docs-bundle-'));
  try {
    const bundled = join(folder, 'openapi.json');
    writeFileSync(bundled, JSON.stringify(bundleFile(spec)));
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
