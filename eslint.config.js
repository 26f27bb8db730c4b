import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/',
      '.bench-dist/',
      'node_modules/',
      'ui/dist/',
      'ui/node_modules/',
      'coverage/',
      'test-screenshots/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { languageOptions: { globals: { ...globals.node } } },
  {
    // The dashboard runs in the browser; the rules of hooks keep its React components honest.
    files: ['ui/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // The server's sources come in as types only (the API's response schemas), so none of
      // them is bundled; the values are pure domain modules: the list of leaderboard
      // aggregations, the seeded random generator and the config diff (shared with the MCP
      // tool compare_runs).
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@server/(?!domain/(aggregation|prng|config-diff)$)',
              allowTypeImports: true,
              message: 'Import only types from the server (import type).',
            },
          ],
        },
      ],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
