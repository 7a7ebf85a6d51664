import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** The package's entries as a project that installed it imports them, served from this checkout's sources. */
export const packageAliases = {
  'workspace-automation-api-contract/msw': fileURLToPath(new URL('../../mocks/msw/index.ts', import.meta.url)),
  'workspace-automation-api-contract/control': fileURLToPath(new URL('../../mocks/control/client.ts', import.meta.url)),
  'workspace-automation-api-contract/types': fileURLToPath(
    new URL('../../generators/generated/openapi.ts', import.meta.url),
  ),
};

export default defineConfig({
  resolve: { alias: packageAliases },
  test: { include: ['examples/msw/*.spec.ts'], root: fileURLToPath(new URL('../..', import.meta.url)) },
});
