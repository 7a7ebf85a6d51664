import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { packageAliases } from '../vitest.config';

const require = createRequire(import.meta.url);

/** MSW's service worker beside the page, from the installed msw (so its version always matches the library's). */
function mockServiceWorker(): Plugin {
  return {
    name: 'mock-service-worker',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'mockServiceWorker.js',
        source: readFileSync(require.resolve('msw/mockServiceWorker.js')),
      });
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: { alias: packageAliases },
  plugins: [mockServiceWorker()],
  logLevel: 'warn',
  build: { emptyOutDir: true, outDir: 'dist', chunkSizeWarningLimit: 2048 },
});
