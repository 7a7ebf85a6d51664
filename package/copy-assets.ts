/**
 * The second half of `npm run build`: what the compiled code reads beside itself, copied to the same place under
 * dist/ (tsc emits only code): the contract (spec/lib and the mock find it next to them) and the diff's rule tables.
 */
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const ROOT = join(__dirname, '..');
const DIST = join(ROOT, 'dist');

/** Folders and the names of their files to copy (not recursive). */
export const ASSETS: { dir: string; names: RegExp }[] = [
  { dir: 'spec', names: /\.(ya?ml|json)$/ },
  { dir: 'scripts/lib/diff', names: /\.(ya?ml|md)$/ },
];

export function copyAssets(root = ROOT, dist = DIST): string[] {
  const copied: string[] = [];
  for (const { dir, names } of ASSETS) {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      if (!entry.isFile() || !names.test(entry.name)) continue;
      const target = join(dist, dir, entry.name);
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(join(root, dir, entry.name), target);
      copied.push(relative(root, join(root, dir, entry.name)));
    }
  }
  return copied;
}
