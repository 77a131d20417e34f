import { dirname, resolve } from 'node:path';
import type { Plugin, Rolldown } from 'vite';

/**
 * How the build groups modules into files, so that the first screens load few files.
 *
 * Screens are loaded lazily (router.tsx). Left to itself, the bundler makes one file for every
 * distinct set of screens that share a module: the home page then needed 26 files, and over HTTP/1.1
 * (6 connections, one round trip each) their round trips cost more than their bytes. Here every
 * module goes to one of four groups by the lazy roots that reach it:
 *
 * - `app`   — needed by the entry itself: joins the entry file;
 * - `start` — needed by both first screens (sign-in and home) and not by the entry;
 * - `main`  — needed by the main layout's first screens (layout, home) and otherwise
 *             only by screens inside the main layout, which always load the layout first;
 * - `guest` — the same for the sign-in side (guest layout, sign-in; recovery inside it);
 *
 * and anything else (modules of one screen, or shared by screens that are not first) stays where the
 * bundler puts it. A module's group never depends on a group loaded later, so chunks import one
 * another only in load order.
 */

type CodeSplitting = Exclude<NonNullable<Rolldown.OutputOptions['codeSplitting']>, boolean>;
type Group = NonNullable<CodeSplitting['groups']>[number];
type NameFunction = Extract<Group['name'], (...args: never[]) => unknown>;
type Context = Parameters<NameFunction>[1];

const MAIN_START = ['/src/app/layouts/MainLayout.tsx', '/src/features/home/HomePage.tsx'];
const GUEST_START = ['/src/app/layouts/GuestLayout.tsx', '/src/features/auth/LoginPage.tsx'];
/** Screens shown inside the guest layout. */
const GUEST_INSIDE = ['/src/features/auth/', '/src/features/recovery/'];
/** Loaded outside both layouts (any address, any session): never grouped with a layout. */
const OUTSIDE = ['/src/app/Toasts.tsx', '/src/features/placeholder/NotFoundPage.tsx'];

const endsWithAny = (id: string, list: string[]) => list.some((suffix) => id.endsWith(suffix));
const includesAny = (id: string, list: string[]) => list.some((part) => id.includes(part));

// ---- Static dependencies, with imports through a package's index followed to the module used ----

/** `import { a, b as c } from 'x'`, `import d from 'x'`, `export { e } from 'x'` (one statement). */
const FROM_RE = /(?:^|[\n;])\s*(import|export)\s+(?!type\s)([\w$\s{},*]*?)\s*from\s*["']([^"']+)["']/g;
const EXPORT_LIST_RE = /(?:^|[\n;])\s*export\s*\{([^}]*)\}\s*(?:;|\n|$)(?!\s*from)/g;

interface Binding {
  imported: string;
  local: string;
}

function bindings(clause: string): Binding[] {
  const out: Binding[] = [];
  const braces = /\{([^}]*)\}/.exec(clause);
  for (const part of braces?.[1]?.split(',') ?? []) {
    const [imported, local] = part
      .trim()
      .split(/\s+as\s+/)
      .map((s) => s.trim());
    if (imported) out.push({ imported, local: local ?? imported });
  }
  const rest = clause.replace(/\{[^}]*\}/, '').trim();
  if (rest.includes('*')) out.push({ imported: '*', local: '*' });
  else {
    const name = rest.split(',')[0]?.trim();
    if (name) out.push({ imported: 'default', local: name });
  }
  return out;
}

const withoutExtension = (id: string) => id.replace(/\.(m?[jt]sx?)$/, '');

/** The module a specifier of `from` stands for, among the modules it imports. */
function target(from: string, specifier: string, imported: readonly string[]): string | undefined {
  if (specifier.startsWith('.')) {
    const base = withoutExtension(resolve(dirname(from), specifier));
    return imported.find((id) => [base, `${base}/index`].includes(withoutExtension(id)));
  }
  // A package's own entry, not a style sheet of the same package ('@mantine/core/styles.css').
  const css = specifier.endsWith('.css');
  const matches = imported.filter((id) => id.includes(`/node_modules/${specifier}`) && id.endsWith('.css') === css);
  return matches.length === 1 ? matches[0] : undefined;
}

function createGraph(ctx: Context) {
  const barrels = new Map<string, Map<string, string> | null>();

  /** A package index that only re-exports: exported name → the module that defines it. */
  function barrel(id: string): Map<string, string> | null {
    if (barrels.has(id)) return barrels.get(id) ?? null;
    barrels.set(id, null);
    const info = ctx.getModuleInfo(id);
    if (!info?.code || !id.includes('/node_modules/')) return null;
    const code = info.code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
    const rest = code
      .replace(/(import|export)\s[^;]*?from\s*["'][^"']+["'];?/g, '')
      .replace(/export\s*\{[^}]*\};?/g, '')
      .replace(/["']use client["'];?/g, '')
      .trim();
    if (rest !== '') return null;
    const locals = new Map<string, { id: string; imported: string }>();
    const exported = new Map<string, { id: string; imported: string }>();
    /** `export * from 'x'`: every name of x that is not exported otherwise. */
    const stars: string[] = [];
    for (const [, kind, clause = '', specifier = ''] of code.matchAll(FROM_RE)) {
      const id2 = target(id, specifier, info.importedIds);
      if (!id2) continue;
      if (kind === 'export' && clause.trim() === '*') {
        stars.push(id2);
        continue;
      }
      for (const b of bindings(clause))
        (kind === 'import' ? locals : exported).set(b.local, { id: id2, imported: b.imported });
    }
    for (const [, list = ''] of code.matchAll(EXPORT_LIST_RE)) {
      for (const b of bindings(`{${list}}`)) {
        const local = locals.get(b.imported);
        if (local) exported.set(b.local, local);
      }
    }
    const result = new Map<string, string>();
    for (const [name, { id: id2, imported }] of exported) {
      const nested = imported === '*' || imported === 'default' ? null : barrel(id2);
      result.set(name, nested?.get(imported) ?? id2);
    }
    // Names of a star re-export are known only when it is a barrel too (e.g. @tanstack/react-query
    // re-exports @tanstack/query-core); otherwise an import of them keeps the whole index.
    for (const star of stars) {
      for (const [name, id2] of barrel(star) ?? []) if (name !== 'default' && !result.has(name)) result.set(name, id2);
    }
    barrels.set(id, result);
    return result;
  }

  /** What a module imports statically; through a barrel, only the modules of the names it imports. */
  function dependencies(id: string): string[] {
    const info = ctx.getModuleInfo(id);
    if (!info) return [];
    const out = new Set<string>();
    const resolved = new Set<string>();
    for (const [, , clause = '', specifier = ''] of (info.code ?? '').matchAll(FROM_RE)) {
      const dep = target(id, specifier, info.importedIds);
      const names = dep ? barrel(dep) : null;
      if (!dep || !names) continue;
      const used = bindings(clause);
      if (used.length === 0 || used.some((b) => !names.has(b.imported))) continue; // keep the whole index
      resolved.add(dep);
      for (const b of used) out.add(names.get(b.imported) ?? dep);
    }
    for (const dep of info.importedIds) if (!resolved.has(dep)) out.add(dep);
    return [...out];
  }

  return { dependencies };
}

interface Reach {
  entry: string;
  rootsOf: Map<string, Set<string>>;
}

function computeReach(ctx: Context, anyModule: string): Reach | null {
  // The entry: climb importers from any module.
  let entry: string | undefined;
  const climbed = new Set<string>();
  const up = [anyModule];
  while (up.length > 0 && !entry) {
    const id = up.pop() ?? '';
    if (climbed.has(id)) continue;
    climbed.add(id);
    const info = ctx.getModuleInfo(id);
    if (!info) continue;
    if (info.isEntry) entry = id;
    up.push(...info.importers, ...info.dynamicImporters);
  }
  if (!entry) return null;

  // Roots: the entry and every module imported lazily from the graph.
  const roots = new Set([entry]);
  const seen = new Set<string>();
  const down = [entry];
  while (down.length > 0) {
    const id = down.pop() ?? '';
    if (seen.has(id)) continue;
    seen.add(id);
    const info = ctx.getModuleInfo(id);
    if (!info) continue;
    down.push(...info.importedIds);
    for (const lazy of info.dynamicallyImportedIds) {
      roots.add(lazy);
      down.push(lazy);
    }
  }

  const graph = createGraph(ctx);
  const deps = new Map<string, string[]>();
  const rootsOf = new Map<string, Set<string>>();
  for (const root of roots) {
    const reached = new Set<string>();
    const stack = [root];
    while (stack.length > 0) {
      const id = stack.pop() ?? '';
      if (reached.has(id)) continue;
      reached.add(id);
      let next = deps.get(id);
      if (!next) deps.set(id, (next = graph.dependencies(id)));
      stack.push(...next);
    }
    for (const id of reached) {
      const set = rootsOf.get(id) ?? new Set<string>();
      set.add(root);
      rootsOf.set(id, set);
    }
  }
  return { entry, rootsOf };
}

type Side = 'main' | 'guest' | 'outside';

function sideOf(root: string): Side {
  if (endsWithAny(root, OUTSIDE)) return 'outside';
  if (endsWithAny(root, GUEST_START) || includesAny(root, GUEST_INSIDE)) return 'guest';
  return 'main';
}

function groupOf(reach: Reach, id: string): string | null {
  const roots = [...(reach.rootsOf.get(id) ?? [])];
  if (roots.length === 0) return null;
  if (roots.includes(reach.entry)) return 'app';
  const sides = new Set(roots.map(sideOf));
  const mainStart = roots.some((r) => endsWithAny(r, MAIN_START));
  const guestStart = roots.some((r) => endsWithAny(r, GUEST_START));
  if (!mainStart && !guestStart) return null;
  // Needed by both first screens, or by a first screen and by what loads outside both layouts
  // (toasts, not found), which may come with either: every session loads it with its first screen.
  if ((mainStart && guestStart) || sides.has('outside')) return 'start';
  // Else it goes with the one first screen that needs it: the other side's later screens load
  // that file when they open, but the first screen of the other side never does.
  return mainStart ? 'main' : 'guest';
}

/** The `codeSplitting` option and a plugin that resets its per-build state. */
export function startScreenChunks(): { codeSplitting: CodeSplitting; plugin: Plugin } {
  let reach: Reach | null | undefined;
  const name: NameFunction = (id, ctx) => {
    if (reach === undefined) reach = computeReach(ctx, id);
    return reach ? groupOf(reach, id) : null;
  };
  return {
    codeSplitting: { groups: [{ name, debugName: 'start-screens', includeDependenciesRecursively: false }] },
    plugin: {
      name: 'lms:start-screen-chunks',
      apply: 'build',
      buildStart() {
        reach = undefined;
      },
    },
  };
}
