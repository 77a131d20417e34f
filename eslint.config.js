import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const FEATURE_MESSAGE = 'A feature does not import another feature: move what both use to shared/ or lib/ (DESIGN §3).';

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
  // Client layers (DESIGN §3): a feature never imports another feature (what two features share
  // moves to shared/ or lib/), and shared/ and lib/ never import app/.
  ...featureBoundaries(),
  {
    files: ['apps/web/src/shared/**/*.{ts,tsx}', 'apps/web/src/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(\\.\\./)+app(/|$)', message: 'shared/ and lib/ do not import app/ (DESIGN §3).' }] },
      ],
    },
  },
);
