import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Several built servers on one PostgreSQL behind HAProxy (`haproxy` from Debian's packages; `.ci/run`
 * installs it), with one of them killed under load, and the retries of deploy/haproxy.cfg and
 * deploy/nginx.conf (`nginx`, also installed there): `npm run test:cluster` with TEST_DATABASE_URL set.
 * Kept out of `npm test`, which needs nothing but Node.js.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: {
    alias: {
      '@lms/contract': fileURLToPath(new URL('../../packages/contract/src/index.ts', import.meta.url)),
    },
  },
  test: {
    name: 'cluster',
    environment: 'node',
    include: ['src/**/*.cluster.test.ts'],
    // One file at a time: the cluster's three servers already share the machine's cores.
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 300_000,
  },
});
