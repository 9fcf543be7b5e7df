// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import layers from './eslint-rules/layers.mjs';

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
    files: ['media/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The whole layer map (eslint-rules/layers.mjs): each layer imports only what it lists.
    files: ['src/**/*.ts', 'media/**/*.ts'],
    plugins: { layers },
    rules: { 'layers/allowed-imports': 'error' },
  },
);
