import type { Config } from 'jest';

// Unit and HTTP tests of the project itself (files named *.test.ts, beside the code they test).
// The conformance checks run through their own runner (conformance/), not through this config.
const config: Config = {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: {
    '^.+\\.m?[tj]s$': [
      'ts-jest',
      { isolatedModules: true, tsconfig: { allowJs: true, module: 'commonjs', moduleResolution: 'node' } },
    ],
  },
  // ESM-only packages that tests import are transpiled to CommonJS for jest (rettime, until-async and
  // @open-draft/deferred-promise: msw's, as `.mjs` or `export` in `.js`).
  transformIgnorePatterns: [
    '/node_modules/(?!(oauth4webapi|structured-headers|@hyperjump|rettime|until-async|@open-draft)/)',
  ],
  testTimeout: 30000,
};

export default config;
