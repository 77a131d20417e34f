import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const FEATURE_MESSAGE =
  'A feature does not import another feature: move what both use to shared/ or lib/ (docs/architecture.md §Layers).';

/**
 * `no-restricted-imports` for apps/web/src/features/<area>/**: a relative path that climbs out of
 * the area and into a sibling folder of features/ is another feature. A file `depth` folders below
 * its area's folder leaves the area with `depth` steps up ('../'), so each depth gets its own
 * pattern (`files` with one '*' for the area and one for each folder and the file).
 */
function featureBoundaries(maxDepth = 4) {
  return Array.from({ length: maxDepth }, (_, index) => {
    const depth = index + 1;
    const below = Array.from({ length: depth + 1 }, () => '*').join('/');
    return {
      files: [`apps/web/src/features/${below}.{ts,tsx}`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              { regex: `^(\\.\\./){${depth}}(?!\\.\\./)[^/]+`, message: FEATURE_MESSAGE },
              { regex: '^(\\.\\./)+features/', message: FEATURE_MESSAGE },
            ],
          },
        ],
      },
    };
  });
}

/**
 * The API's layers, lowest first (docs/architecture.md): lib/ (helpers that know nothing of the app),
 * db/ (connection, schema, migrations, unit of work), platform/ (sessions, security, errors, mail,
 * clock…), modules/ (the features); above them what wires them together (app.ts, server.ts,
 * bootstrap.ts, background.ts, bench/, demo/) and the tests' helpers (test/). A layer imports only
 * from the layers below it; config.ts is read from platform/ up. Tests themselves may reach anything.
 */
const API_LAYERS = ['lib', 'db', 'platform', 'modules'];
const API_TOP = ['bench/', 'demo/', 'test/', 'app.js', 'server.js', 'bootstrap.js', 'background.js'];
const escaped = (path) => path.replace(/\./g, '\\.').replace(/\.js$/, '.js$');

function apiLayers() {
  return API_LAYERS.map((layer, index) => {
    const above = [...API_LAYERS.slice(index + 1).map((l) => `${l}/`), ...API_TOP];
    if (layer === 'lib' || layer === 'db') above.push('config.js');
    const message = `apps/api/src/${layer}/ imports nothing above it (${above.join(', ')}): move what both need down.`;
    return {
      files: [`apps/api/src/${layer}/**/*.ts`],
      ignores: ['apps/api/src/**/*.test.ts'],
      rules: {
        'no-restricted-imports': [
          'error',
          { patterns: [{ regex: `^(\\.\\./)+(${above.map(escaped).join('|')})`, message }] },
        ],
      },
    };
  });
}

/**
 * Rules with one owner in the API, kept there by `no-restricted-syntax` in every other production
 * file: soft deletion of the course content is said through modules/courses/live.ts (outside the
 * courses module a query names `x.deleted_at` of users only, as `users`, `u` or `managers`), and the enrollment sources are written
 * by modules/enrollment/sources.ts only (seeders and tests write rows as they need).
 */
function ownership() {
  const rule = (message, selectors) => selectors.map((selector) => ({ selector, message }));
  const liveContent = rule('Say "live" through modules/courses/live.ts instead of reading deleted_at by hand.', [
    'Literal[value=/^(?!(u|users|managers)\\.)\\w+\\.deleted_at$/]',
    'TemplateElement[value.raw=/(?<![\\w.])(?!(u|users|managers)\\.)\\w+\\.deleted_at/]',
  ]);
  const sources = '(user_courses|department_courses|group_users|group_courses)';
  const enrollmentSources = rule('Enrollment sources change through EnrollmentService (modules/enrollment).', [
    `CallExpression[callee.property.name=/^(insertInto|deleteFrom|updateTable)$/] > Literal[value=/^${sources}\\b/]`,
    `TemplateElement[value.raw=/(insert into|delete from|update)\\s+${sources}\\b/i]`,
  ]);
  const api = (path) => `apps/api/src/${path}/**/*.ts`;
  const owners = { liveContent: ['modules/courses'], enrollmentSources: ['modules/enrollment'] };
  const outside = ['db', 'demo', 'bench', 'test'];
  const restricted = (selectors) => ({ 'no-restricted-syntax': ['error', ...selectors] });
  return [
    {
      files: ['apps/api/src/**/*.ts'],
      ignores: [
        'apps/api/src/**/*.test.ts',
        ...[...owners.liveContent, ...owners.enrollmentSources, ...outside].map(api),
      ],
      rules: restricted([...liveContent, ...enrollmentSources]),
    },
    {
      files: owners.liveContent.map(api),
      ignores: ['apps/api/src/**/*.test.ts'],
      rules: restricted(enrollmentSources),
    },
    {
      files: owners.enrollmentSources.map(api),
      ignores: ['apps/api/src/**/*.test.ts'],
      rules: restricted(liveContent),
    },
  ];
}

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', 'e2e/.tmp/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  // Client layers (docs/architecture.md §Layers): a feature never imports another feature (what two features share
  // moves to shared/ or lib/), and shared/ and lib/ never import app/.
  ...featureBoundaries(),
  // Server layers: db/ imports nothing above it, platform/ nothing of modules/ (apiLayers above).
  ...apiLayers(),
  // One owner per rule (ownership below).
  ...ownership(),
  {
    files: ['apps/web/src/shared/**/*.{ts,tsx}', 'apps/web/src/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+app(/|$)',
              message: 'shared/ and lib/ do not import app/ (docs/architecture.md §Layers).',
            },
          ],
        },
      ],
    },
  },
);
