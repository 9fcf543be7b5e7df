// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

/** An import of a src/sync file other than its index and contract.ts. */
const SYNC_INTERNAL = { regex: '(^|/)sync/(?!contract$)[^/]+$', message: 'src/editor imports the client core from src/sync/index.ts or src/sync/contract.ts only.' };

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
    files: ['src/api/**', 'src/auth/**', 'src/sync/**', 'src/sandbox/**', 'src/bridge/**', 'media/**'],
    rules: { 'no-restricted-imports': ['error', { paths: ['vscode'] }] },
  },
  {
    // The assistants' side speaks only the local service's asking surface: nothing of the
    // person's API client, the sign-in, the core, the editor or the sandbox's inside.
    files: ['src/bridge/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: ['vscode'],
        patterns: ['**/api/*', '**/auth/*', '**/sync/*', '**/editor/*', '**/sandbox/*', '**/shared/*'],
      }],
    },
  },
  {
    // The sandbox may use api schemas, never the client.
    files: ['src/sandbox/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: ['vscode'],
        patterns: [{ group: ['**/api/client*', '**/api/http*', '**/auth/*', '**/sync/*', '**/editor/*'] },
          { regex: '(^|/)bridge/(?!home$)', message: 'the sandbox knows of the bridge only where it announces itself (bridge/home).' }],
      }],
    },
  },
  {
    // src/bridge runs beside the assistant CLIs (dist/bridge.js) and writes their settings: Node's
    // own modules, the api's wire schemas and its own files; no client, sign-in, client core,
    // sandbox, editor or webview code.
    files: ['src/bridge/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'src/bridge runs outside the editor: no vscode.' }],
        patterns: [
          { regex: '(^|/)(auth|sync|sandbox|editor|shared)(/|$)', message: 'src/bridge imports Node, src/api schemas and its own files only.' },
          { regex: '(^|/)api/(?!schemas$)', message: 'src/bridge imports Node, src/api schemas and its own files only.' },
        ],
      }],
    },
  },
  {
    files: ['media/**'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The layer map: the editor sees the client core through its index or its contract only
    // (docs/architecture.md "The parts"); what it needs of another sync file, sync/index.ts exports.
    files: ['src/editor/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SYNC_INTERNAL] }] },
  },
  {
    // src/shared is code the card panel's webview runs too: no vscode, nothing of the editor.
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'src/shared runs in the webview too: no vscode.' }],
        patterns: [SYNC_INTERNAL, { regex: '(^|/)editor(/|$)', message: 'src/shared runs in the webview too: no src/editor import.' }],
      }],
    },
  },
);
