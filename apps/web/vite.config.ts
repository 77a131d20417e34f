import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { startScreenChunks } from './build/chunks.ts';
import { keepSourceMapsAside } from './build/sourcemaps.ts';

const api = process.env.API_URL ?? 'http://127.0.0.1:3000';
const chunks = startScreenChunks();

/** Text files worth compressing; fonts (woff2), images and source maps are left alone. */
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt|webmanifest)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/**
 * Writes `<file>.br` (brotli, best quality) and `<file>.gz` (gzip -9) next to every text file of the
 * build, where that saves anything; the API server sends them with Content-Encoding
 * (apps/api/src/platform/webClient.ts), so no request pays for compression.
 */
function precompress(): Plugin {
  return {
    name: 'lms:precompress',
    apply: 'build',
    // After the last chunk is written (public/ files are copied before), so every file is there.
    writeBundle: {
      sequential: true,
      order: 'post',
      handler(options) {
        if (!options.dir) return;
        for (const file of filesUnder(options.dir).filter((f) => COMPRESSIBLE.test(f))) {
          const data = readFileSync(file);
          const br = brotliCompressSync(data, {
            params: {
              [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
              [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
              [zlib.BROTLI_PARAM_SIZE_HINT]: data.length,
            },
          });
          const gz = gzipSync(data, { level: 9 });
          if (br.length < data.length) writeFileSync(`${file}.br`, br);
          if (gz.length < data.length) writeFileSync(`${file}.gz`, gz);
        }
      },
    },
  };
}

/**
 * react-router ships a production build (dist/production: without development warnings) next to
 * the development one, but its package exports name only the latter: the build takes the
 * production files.
 *
 * The router is one module, in the entry file; its components made by `React.forwardRef(…)`,
 * `createContext` or `memo` at the top level (Link, NavLink, Form, …) lack a `@__PURE__` mark and
 * get a `displayName` assigned, so the bundler kept them, and what they use, even unused (~1.8 kB
 * gzip). The transform marks those calls pure and drops the `displayName` lines (names for React's
 * developer tools only). Lines are blanked, not removed, and the marks only widen their own
 * line, so the module's source map is kept as it is (`map: null`).
 */
function reactRouterProduction(): Plugin {
  return {
    name: 'lms:react-router-production',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (source !== 'react-router' && source !== 'react-router/dom') return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved?.id.includes('/node_modules/react-router/dist/development/')) return resolved;
      const id = resolved.id.replace('/dist/development/', '/dist/production/');
      return existsSync(id) ? { ...resolved, id } : resolved;
    },
    transform(code, id) {
      if (!id.includes('/node_modules/react-router/dist/production/')) return null;
      return {
        code: code
          .replace(/^[A-Za-z_$][\w$]*\.displayName = "[^"\n]*";$/gm, '')
          .replace(
            /^(var [A-Za-z_$][\w$]* = )(React\d*\.(?:forwardRef|createContext|memo)\()/gm,
            '$1/* @__PURE__ */ $2',
          ),
        map: null,
      };
    },
  };
}

export default defineConfig({
  plugins: [reactRouterProduction(), react(), chunks.plugin, precompress(), keepSourceMapsAside()],
  resolve: {
    alias: {
      // A path, not a URL: tests that read this file run where URL is the DOM's (buildOutput.test.ts).
      '@lms/contract': join(import.meta.dirname, '../../packages/contract/src/index.ts'),
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': api,
      '/ziggy': api,
      '/login': { target: api, bypass: (req) => (req.method === 'GET' ? req.url : undefined) },
      '/logout': api,
      '/storage': api,
      '/docs': api,
    },
  },
  build: {
    outDir: 'dist',
    // Built for error reports, never served: no comment points to them, and they leave dist/
    // for sourcemaps/ (build/sourcemaps.ts).
    sourcemap: 'hidden',
    // Every browser the product supports has modulepreload; the polyfill would only add bytes.
    modulePreload: { polyfill: false },
    rolldownOptions: { output: { codeSplitting: chunks.codeSplitting } },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    css: false,
    // As the API's: a screen test that renders a whole page waits longer than 5 s on a busy machine.
    testTimeout: 20000,
  },
});
