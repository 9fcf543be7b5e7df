// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.cache/**', 'artifacts/**', '.vscode-test/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    // Only src/editor may import vscode: the rest is plain Node, tested without an editor.
    files: ['src/api/**', 'src/auth/**', 'src/sync/**', 'src/sandbox/**', 'media/**'],
    rules: { 'no-restricted-imports': ['error', { paths: ['vscode'] }] },
  },
  {
    // The sandbox may use api schemas, never the client.
    files: ['src/sandbox/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: ['vscode'],
        patterns: ['**/api/client*', '**/api/http*', '**/auth/*', '**/sync/*', '**/editor/*'],
      }],
    },
  },
  {
    files: ['media/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
