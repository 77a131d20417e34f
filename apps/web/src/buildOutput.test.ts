import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UserConfig } from 'vite';
import { afterEach, describe, expect, it } from 'vitest';
import { moveSourceMaps } from '../build/sourcemaps.ts';
import config from '../vite.config.ts';

/** Source maps are built for error reports but never published (issue 30 item 22). */
describe('the build keeps its source maps out of what is served', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('builds hidden source maps (no sourceMappingURL comment points to them) and moves them aside', () => {
    const { build, plugins } = config as UserConfig;
    expect(build?.sourcemap).toBe('hidden');
    expect(plugins?.flat().map((p) => (p && typeof p === 'object' && 'name' in p ? p.name : ''))).toContain(
      'lms:source-maps-aside',
    );
  });

  it('moves every map out of dist into the maps folder, replacing the last build', () => {
    const root = mkdtempSync(join(tmpdir(), 'lms-maps-'));
    dirs.push(root);
    const dist = join(root, 'dist');
    const maps = join(root, 'sourcemaps');
    mkdirSync(join(dist, 'assets'), { recursive: true });
    mkdirSync(maps);
    writeFileSync(join(maps, 'stale.js.map'), '{}');
    writeFileSync(join(dist, 'index.html'), '<html></html>');
    writeFileSync(join(dist, 'assets', 'index-a1.js'), 'export {};');
    writeFileSync(join(dist, 'assets', 'index-a1.js.map'), '{"version":3}');
    writeFileSync(join(dist, 'assets', 'style-b2.css.map'), '{"version":3}');
    moveSourceMaps(dist, maps);
    expect(existsSync(join(dist, 'assets', 'index-a1.js.map'))).toBe(false);
    expect(existsSync(join(dist, 'assets', 'style-b2.css.map'))).toBe(false);
    expect(readFileSync(join(maps, 'assets', 'index-a1.js.map'), 'utf8')).toBe('{"version":3}');
    expect(existsSync(join(maps, 'assets', 'style-b2.css.map'))).toBe(true);
    expect(existsSync(join(maps, 'stale.js.map'))).toBe(false);
    expect(existsSync(join(dist, 'assets', 'index-a1.js'))).toBe(true);
  });
});
