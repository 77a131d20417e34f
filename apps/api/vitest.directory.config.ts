import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The directory sync against a real OpenLDAP (`slapd` from Debian's packages; `.ci/run` installs it):
 * `npm run test:directory`, on PostgreSQL with TEST_DATABASE_URL set, as the API suite. Kept out of
 * `npm test`, which needs nothing but Node.js.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: {
    alias: {
      '@lms/contract': fileURLToPath(new URL('../../packages/contract/src/index.ts', import.meta.url)),
    },
  },
  test: {
    name: 'directory',
    environment: 'node',
    include: ['src/**/*.slapd.test.ts'],
    testTimeout: 20000,
    hookTimeout: 60000,
  },
});
