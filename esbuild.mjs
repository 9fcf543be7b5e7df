// Bundles the extension (cjs, vscode external), the sandbox (node) and the webview (browser).
// `--release` minifies; `--watch` rebuilds on change. Source maps always (external files).
import * as esbuild from 'esbuild';

const release = process.argv.includes('--release');
const watch = process.argv.includes('--watch');

const common = {
  bundle: true,
  sourcemap: true,
  minify: release,
  logLevel: 'warning',
  legalComments: 'none',
};

const builds = [
  {
    ...common,
    entryPoints: { extension: 'src/editor/extension.ts' },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  },
  {
    ...common,
    entryPoints: { sandbox: 'src/sandbox/main.ts' },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  {
    ...common,
    entryPoints: { webview: 'media/webview/main.ts' },
    outdir: 'dist',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
];

if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('watching for changes...');
} else {
  await Promise.all(builds.map((b) => esbuild.build(b)));
}
