import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Tests that read generated documents with poppler's tools (`pdftotext`, `pdfinfo`, `pdftoppm`,
 * `pdfimages` from Debian's poppler-utils; `.ci/run` installs it): `npm run test:tools`. Kept out of
 * `npm test`, which needs nothing but Node.js (it reads PDFs back with pdf.js instead).
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: {
    alias: {
      '@lms/contract': fileURLToPath(new URL('../../packages/contract/src/index.ts', import.meta.url)),
    },
  },
  test: {
    name: 'tools',
    environment: 'node',
    include: ['src/**/*.poppler.test.ts'],
    testTimeout: 30000,
  },
});
