import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@lms/contract': fileURLToPath(new URL('../../packages/contract/src/index.ts', import.meta.url)),
    },
  },
  test: {
    name: 'api',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // Tests against a real OpenLDAP need Debian's slapd: `npm run test:directory` (vitest.directory.config.ts);
    // those reading PDFs with poppler's tools, poppler-utils: `npm run test:tools` (vitest.tools.config.ts);
    // several servers behind HAProxy: `npm run test:cluster` (vitest.cluster.config.ts).
    exclude: ['**/node_modules/**', 'src/**/*.slapd.test.ts', 'src/**/*.poppler.test.ts', 'src/**/*.cluster.test.ts'],
    testTimeout: 20000,
    hookTimeout: 30000,
  },
});
