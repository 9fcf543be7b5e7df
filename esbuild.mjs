// Bundles the extension (cjs, vscode external), the sandbox (node) and the webview (browser).
// `--release` minifies; `--watch` rebuilds on change. Source maps always (external files).
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { builtinsOnce } from './scripts/builtins-once.mjs';
import { esmToCommonJs, exportsAssignedLater } from './scripts/esm-to-cjs.mjs';
import { CLIS_DIR, GENERATED, generate } from './scripts/gen-clis.mjs';

const release = process.argv.includes('--release');
const watch = process.argv.includes('--watch');
// `--analyze`: after the build, what each bundle holds, source file by source file (esbuild's
// metafile), biggest first: where the bytes of dist/ come from (docs/decisions.md, "#51, #54: the bundle's goals").
const analyze = process.argv.includes('--analyze');
// `--test-handle`: the extension-host tests' build. activate() then hands the tests the whole app
// (the Restricted Mode window installs a VSIX, which VS Code runs outside its test mode). Never in
// a release: `npm run package` builds with --release and without it.
const testHandle = process.argv.includes('--test-handle') && !release;
// `--outdir DIR`: the bundles somewhere else than dist/ (npm run package builds its VSIX apart, so
// a package never rewrites the dist/ a running test window loads). The test handle's build goes
// to its own folder, never to dist/ (#37): dist/ is what a development window (F5, a window
// opened on this folder as the extension under development) loads, where any other extension
// may call activate(); the handle there would hand out the whole app.
const TEST_HANDLE_OUT = path.join('out', 'test-handle', 'dist');
const outIndex = process.argv.indexOf('--outdir');
const out = outIndex > 0 ? process.argv[outIndex + 1] : testHandle ? TEST_HANDLE_OUT : 'dist';
if (testHandle && path.resolve(out) === path.resolve('dist')) {
  console.error('esbuild.mjs: --test-handle never builds into dist/ (a development window loads it); give another --outdir');
  process.exit(2);
}

// The CLI adapters' list is committed (src/bridge/clis/all.generated.ts): a stale one would bundle
// without a new adapter, so the build stops and says how to write it (`npm run build` writes it first).
if (fs.readFileSync(path.join(CLIS_DIR, GENERATED), 'utf8') !== generate()) {
  console.error(`esbuild.mjs: src/bridge/clis/${GENERATED} is not the list of the adapter files: run node scripts/gen-clis.mjs`);
  process.exit(2);
}

const common = {
  bundle: true,
  sourcemap: true,
  minify: release,
  logLevel: 'warning',
  legalComments: 'none',
};

// Three undici files the extension never runs, replaced to keep dist/extension.js small (see
// docs/decisions.md, "Bundle size"): the SIMD build of the llhttp parser (undici catches the
// failed compile and uses the plain build, which runs everywhere); the fetch body code undici
// loads only for FormData bodies (src/api/http.ts sends strings); and HTTP/2, which undici uses
// only when `allowH2` is set (src/api/http.ts leaves it off, so TLS offers http/1.1 alone).
const undiciTrim = {
  name: 'undici-trim',
  setup(build) {
    const stubs = {
      'llhttp_simd-wasm.js': 'module.exports = new Uint8Array(0);',
      'body.js': "module.exports.extractBody = () => { throw new Error('FormData bodies are not bundled'); };",
      'client-h2.js': "module.exports = () => { throw new Error('HTTP/2 is not bundled'); };",
    };
    build.onResolve({ filter: /\/(llhttp_simd-wasm|fetch\/body|client-h2)\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]undici[\\/]lib[\\/]/.test(args.importer)
        ? { path: args.path.split('/').pop(), namespace: 'undici-trim' }
        : undefined);
    build.onLoad({ filter: /.*/, namespace: 'undici-trim' }, (args) => ({ contents: stubs[args.path], loader: 'js' }));
  },
};

// zod/mini's `catch` names `core.util.constantCatch`: a property of a namespace's namespace, which
// esbuild cannot follow, so it kept every function of zod's util (some 13 KB minified) as one
// object. The file already imports that util module itself (`util`): the same function, named
// so esbuild keeps only what is used.
const ZOD_MINI = /[\\/]node_modules[\\/]zod[\\/]v4[\\/]mini[\\/]schemas\.js$/;
const zodUtilDirect = {
  name: 'zod-util-direct',
  setup(build) {
    build.onLoad({ filter: ZOD_MINI }, (args) => {
      const text = fs.readFileSync(args.path, 'utf8');
      if (!text.includes('core.util.constantCatch(') || !/^import \* as util from "\.\.\/core\/util\.js";$/m.test(text)) {
        throw new Error(`esbuild.mjs (zod-util-direct): ${args.path} no longer reads as this plugin expects (zod updated?): check the rewrite`);
      }
      return { contents: text.replaceAll('core.util.constantCatch(', 'util.constantCatch('), loader: 'js' };
    });
  },
};

// undici and jose are needed at the first request, not at activation: they go in files of their
// own that dist/extension.js requires on first use (docs/decisions.md, "Bundle size").
const lateModules = {
  name: 'late-modules',
  setup(build) {
    build.onResolve({ filter: /^\.\/undici-lean$/ }, () => ({ path: './net-undici.js', external: true }));
    build.onResolve({ filter: /^jose$/ }, () => ({ path: './net-jose.js', external: true }));
  },
};

// `import * as vscode from 'vscode'` (in every file that uses the API) bundles as esbuild's `__toESM(require('vscode'))`,
// which copies every property of the VS Code API (some 300, each as a getter) into a new object, once
// per file: about 8 ms of the extension host's load of dist/extension.js, and nothing under plain
// Node's small stub. One module requires the API once and hands each file an object whose
// prototype is the API: `__toESM` then finds nothing of its own to copy (docs/decisions.md, "state
// and load time").
const vscodeOnce = {
  name: 'vscode-once',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.namespace === 'vscode-once' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-once' });
    build.onLoad({ filter: /.*/, namespace: 'vscode-once' }, () => ({
      contents: "module.exports = Object.create(require('vscode'), { __esModule: { value: true } });",
      loader: 'js',
    }));
  },
};

// Barrels (a module that re-exports other modules' names: src/sync/index.ts, the editor's one way
// to the client core; live-parts.ts for isSignedIn; shared/protocol.ts for safeExternalUrl) tie whatever imports one name of them to
// every module they name, which would put the whole client core in dist/extension.js. In the
// extension's build, an import of a barrel's re-exported value names the module that defines it
// (as bundlers' "optimize barrel imports" do): the same module and binding, imported directly. The
// sources keep importing the barrel (the layer map holds them to it).
const BARRELS = ['src/sync/index.ts', 'src/editor/live-parts.ts', 'src/shared/protocol.ts'].map((f) => path.resolve(f));
/** name exported by the barrel -> [module file that defines it, its name there] */
const barrelNames = new Map(BARRELS.map((barrel) => {
  const names = new Map();
  const text = fs.readFileSync(barrel, 'utf8');
  for (const m of text.matchAll(/^export\s*\{([^}]*)\}\s*from\s*'([^']+)';/gm)) {
    const target = resolveTs(path.dirname(barrel), m[2]);
    for (const spec of m[1].split(',').map((x) => x.trim()).filter((x) => x && !x.startsWith('type '))) {
      const [own, as = own] = spec.split(/\s+as\s+/);
      names.set(as, [target, own]);
    }
  }
  return [barrel, names];
}));
function resolveTs(dir, spec) {
  const base = path.resolve(dir, spec.replace(/\.js$/, ''));
  return [`${base}.ts`, path.join(base, 'index.ts')].find((f) => fs.existsSync(f)) ?? base;
}
const barrelImports = {
  name: 'barrel-imports',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (args) => {
      if (BARRELS.includes(args.path)) return undefined;
      const text = fs.readFileSync(args.path, 'utf8');
      const dir = path.dirname(args.path);
      let changed = false;
      const contents = text.replace(/^import\s*\{([^}]*)\}\s*from\s*'([^']+)';/gm, (whole, specs, from) => {
        if (!from.startsWith('.')) return whole;
        const names = barrelNames.get(resolveTs(dir, from));
        if (!names) return whole;
        const kept = [];
        const direct = new Map();
        for (const spec of specs.split(',').map((x) => x.trim()).filter(Boolean)) {
          const [name, local = name] = spec.replace(/^type\s+/, '').split(/\s+as\s+/);
          const to = !spec.startsWith('type ') && names.get(name);
          if (!to) { kept.push(spec); continue; }
          const rel = path.relative(dir, to[0]).split(path.sep).join('/').replace(/\.ts$/, '');
          const list = direct.get(rel) ?? [];
          list.push(to[1] === local ? local : `${to[1]} as ${local}`);
          direct.set(rel, list);
        }
        if (!direct.size) return whole;
        changed = true;
        const lines = [...direct].map(([rel, list]) => `import { ${list.join(', ')} } from '${rel.startsWith('.') ? rel : `./${rel}`}';`);
        if (kept.length) lines.push(`import { ${kept.join(', ')} } from '${from}';`);
        // As many lines as before: the source map's lines stay right.
        return lines.join(' ') + '\n'.repeat((whole.match(/\n/g) ?? []).length);
      });
      return changed ? { contents, loader: 'ts' } : undefined;
    });
  },
};

// The extension is split (docs/decisions.md, "Load at activation"): dist/extension.js holds what
// activate() runs; each `import()` in src/editor (live-core.ts: the client core and the live set)
// is a file of its own (`live-core-<hash>.js`), loaded when first asked for; code both use is in
// shared `chunk-<hash>.js` files that extension.js requires at load. esbuild splits only ES modules, and VS Code (1.93 and
// current) loads an extension's main as CommonJS: the split is built as ES modules in memory, then
// each file's module syntax is rewritten as CommonJS into the output folder (scripts/esm-to-cjs.mjs):
// its imports of the other files as `require('./…')`, an `import()` as a require on first call.
const toCommonJs = {
  name: 'to-commonjs',
  setup(build) {
    build.onEnd((result) => {
      if (result.errors.length) return;
      const outputs = result.metafile.outputs;
      const written = new Map(result.outputFiles.map((f) => [f.path, f.text]));
      const files = Object.keys(outputs).filter((f) => f.endsWith('.js'));
      // Parts of an earlier build (named by a hash of their content) never linger in the output.
      const names = files.map((f) => path.basename(f));
      if (fs.existsSync(out)) {
        for (const f of fs.readdirSync(out)) if (/-[A-Z0-9]{8}\.js(\.map)?$/.test(f) && !names.includes(f.replace(/\.map$/, ''))) fs.rmSync(path.join(out, f));
      }
      fs.mkdirSync(out, { recursive: true });
      const own = (p) => (outputs[p] ? `./${path.basename(p)}` : undefined);
      try {
        const refused = exportsAssignedLater(Object.keys(result.metafile.inputs));
        if (refused.length) throw new Error(`esbuild.mjs: ${refused.join('; ')}: each exported as a let or var; the CommonJS files hand out a copy taken when a file has run (scripts/esm-to-cjs.mjs): export a const, or a function that reads it`);
        for (const f of files) {
          const file = path.resolve(f);
          const map = written.get(`${file}.map`);
          const cjs = esmToCommonJs(written.get(file), map && JSON.parse(map), { file: f, imports: outputs[f].imports, exports: outputs[f].exports, own });
          fs.writeFileSync(file, cjs.code);
          if (cjs.map) fs.writeFileSync(`${file}.map`, JSON.stringify(cjs.map));
        }
      } catch (e) {
        return { errors: [{ text: e instanceof Error ? e.message : String(e) }] };
      }
    });
  },
};

// The store's SQLite (node-sqlite3-wasm, src/sandbox/store/sqlite-store.ts) reads its WebAssembly
// from beside the script that loads it: the bundled sandbox's own folder.
const SQLITE_WASM = path.join('node_modules', 'node-sqlite3-wasm', 'dist', 'node-sqlite3-wasm.wasm');
const sqliteWasm = {
  name: 'sqlite-wasm',
  setup(build) {
    build.onEnd((result) => {
      if (!result.errors.length) fs.copyFileSync(SQLITE_WASM, path.join(build.initialOptions.outdir, path.basename(SQLITE_WASM)));
    });
  },
};

const builds = [
  {
    ...common,
    entryPoints: { extension: 'src/editor/extension.ts' },
    outdir: out,
    write: false,
    platform: 'node',
    format: 'esm',
    splitting: true,
    chunkNames: '[name]-[hash]',
    metafile: true,
    target: 'node20',
    external: ['vscode'],
    // jsonc-parser's `main` is a UMD build whose factory requires its own files by name, which a
    // bundle does not hold: its ES module build instead (connect/cli-connector.ts edits settings with it).
    alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
    plugins: [lateModules, vscodeOnce, barrelImports, zodUtilDirect, toCommonJs],
    define: { __TEST_HANDLE__: testHandle ? 'true' : 'false' },
  },
  {
    ...common,
    entryPoints: { 'net-undici': 'src/api/undici-lean.ts' },
    outdir: out,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    plugins: [undiciTrim],
  },
  {
    ...common,
    stdin: { contents: "export * from 'jose';", resolveDir: '.', sourcefile: 'net-jose.js' },
    outfile: `${out}/net-jose.js`,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  {
    ...common,
    entryPoints: { sandbox: 'src/sandbox/main.ts' },
    outdir: out,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    plugins: [sqliteWasm],
  },
  {
    // The assistants' side (hooks, ask, demo): small, and runnable by any Node 20 or VS Code's own runtime.
    ...common,
    entryPoints: { bridge: 'src/bridge/main.ts' },
    outdir: out,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    plugins: [builtinsOnce],
  },
  {
    ...common,
    entryPoints: { webview: 'media/webview/main.ts' },
    outdir: out,
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
  const results = await Promise.all(builds.map((b) => esbuild.build(analyze ? { ...b, metafile: true } : b)));
  // The extension's ES module pass is the one whose files are split (its CommonJS pass rewrites
  // each file whole and adds only esbuild's few helpers).
  if (analyze) for (const r of results) console.log(await esbuild.analyzeMetafile(r.metafile));
}
