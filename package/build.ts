/**
 * `npm run build` (and `npm pack`, through `prepack`): the package's JavaScript in dist/, from a clean folder.
 * tsc compiles the commands and the exports (tsconfig.build.json), then the files they read beside themselves
 * are copied (copy-assets.ts). Nothing in dist/ needs TypeScript or tsx to run.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { copyAssets } from './copy-assets';

const ROOT = join(__dirname, '..');

rmSync(join(ROOT, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json')], {
  cwd: ROOT,
  stdio: 'inherit',
});
const copied = copyAssets();
console.log(`build: dist/ compiled, and ${copied.length} files copied beside the code (${copied.join(', ')})`);
