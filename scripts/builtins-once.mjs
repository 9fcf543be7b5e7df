// esbuild plugin for the bridge's bundle (a new process per CLI event, so its start is on the
// card's way to the tree: #53/#54, permissionToTreeP95Ms). `import * as path from 'node:path'`
// bundles as esbuild's `__toESM(require('node:path'))`, which copies every property of the module
// (each as a getter) into a new object, once per importing file: 15 copies of node:path, 4 of
// node:fs, node:http and node:os, about 4-5 ms of each hook's start. As the extension's
// `vscode-once` (esbuild.mjs), a builtin imported by an import statement is required through a
// module whose prototype is the builtin: `__toESM` then finds nothing of its own to copy. Lazy
// `require('node:https')` calls are left as they are (loaded when used). A default import gets
// the module itself (`default`), as before (test/bridge/bridge-start.test.ts).
export const builtinsOnce = {
  name: 'builtins-once',
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (args) =>
      args.namespace === 'builtins-once' || args.kind !== 'import-statement'
        ? { path: args.path, external: true }
        : { path: args.path, namespace: 'builtins-once', sideEffects: false });
    build.onLoad({ filter: /.*/, namespace: 'builtins-once' }, (args) => ({
      contents: `const m = require(${JSON.stringify(args.path)});\nmodule.exports = Object.create(m, { __esModule: { value: true }, default: { value: m } });`,
      loader: 'js',
    }));
  },
};
