import { mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { Plugin } from 'vite';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/**
 * Source maps are built (`build.sourcemap: 'hidden'`: no `sourceMappingURL` comment in the code) for
 * reading error reports, but never published: they hold the whole source. After the build they are
 * moved out of the served folder into `sourcemaps/` beside it (apps/web/sourcemaps, replaced on every
 * build); the server also refuses any `*.map` (apps/api/src/platform/webClient.ts).
 */
export function keepSourceMapsAside(): Plugin {
  let root = '';
  return {
    name: 'lms:source-maps-aside',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    writeBundle: {
      sequential: true,
      order: 'post',
      handler(options) {
        if (options.dir) moveSourceMaps(options.dir, join(root, 'sourcemaps'));
      },
    },
  };
}

/** Moves every `*.map` under `dist` to the same place under `mapsDir`. */
export function moveSourceMaps(dist: string, mapsDir: string): void {
  rmSync(mapsDir, { recursive: true, force: true });
  for (const file of filesUnder(dist).filter((f) => f.endsWith('.map'))) {
    const target = join(mapsDir, relative(dist, file));
    mkdirSync(dirname(target), { recursive: true });
    renameSync(file, target);
  }
}
