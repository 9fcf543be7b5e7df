// scripts/esm-to-cjs.mjs: esbuild's split ES module output rewritten as CommonJS (the extension's
// build, esbuild.mjs). Built here by esbuild itself from planted sources, as the extension is:
// the files run under require(), a lazy part loads on its first call, the source map still points
// at the sources, text that only reads like an import is left alone, and anything the metafile
// does not account for fails with the file's name.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import type * as EsmToCjs from '../../scripts/esm-to-cjs.mjs' with { 'resolution-mode': 'import' };
import type * as MapShift from '../../scripts/source-map-shift.mjs' with { 'resolution-mode': 'import' };

const SOURCES: Record<string, string> = {
  'entry.ts': [
    "import * as path from 'node:path';",
    "import { shared, COUNT } from './shared';",
    '',
    "export const lazy = () => import('./lazy');",
    "export function run(): string { return `${shared(path.basename('/a/b.txt'))} MARK_RUN ${COUNT}`; }",
  ].join('\n'),
  'lazy.ts': [
    "import { shared } from './shared';",
    "import { basename } from 'node:path';",
    // What OpenCode's plugin text does (src/bridge/clis/opencode-plugin.ts): an import inside a string.
    'export const pluginText = `// a plugin\nimport { spawn } from "node:child_process";\nexport default 1;\n`;',
    "export function later(): string { return shared(basename('/x/late.js')); }",
  ].join('\n'),
  'shared.ts': [
    "import * as path from 'node:path';",
    'export const COUNT = 3;',
    "export function shared(s: string): string { return path.extname(s) + ':' + s; }",
  ].join('\n'),
};

describe('esbuild\'s split ES modules rewritten as CommonJS (scripts/esm-to-cjs.mjs)', function () {
  this.timeout(60_000);
  let dir: string;
  let convert: typeof EsmToCjs;
  let maps: typeof MapShift;
  let built: esbuild.BuildResult<{ write: false; metafile: true }>;

  /** Every .js of the build rewritten into `out`, or the first error. */
  function rewrite(out: string, edit: (meta: EsmToCjs.OutputMeta) => EsmToCjs.OutputMeta = (m) => m): void {
    const outputs = built.metafile.outputs;
    const own = (p: string) => (outputs[p] ? `./${path.basename(p)}` : undefined);
    for (const f of Object.keys(outputs).filter((k) => k.endsWith('.js'))) {
      const file = path.resolve(dir, f);
      const text = built.outputFiles.find((o) => o.path === file)!.text;
      const map = JSON.parse(built.outputFiles.find((o) => o.path === `${file}.map`)!.text) as object;
      const cjs = convert.esmToCommonJs(text, map, edit({ file: f, imports: outputs[f]!.imports, exports: outputs[f]!.exports, own }));
      fs.writeFileSync(path.join(out, path.basename(f)), cjs.code);
      fs.writeFileSync(path.join(out, `${path.basename(f)}.map`), JSON.stringify(cjs.map));
    }
  }

  before(async () => {
    convert = await import('../../scripts/esm-to-cjs.mjs');
    maps = await import('../../scripts/source-map-shift.mjs');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-esm-cjs-'));
    fs.mkdirSync(path.join(dir, 'src'));
    for (const [f, text] of Object.entries(SOURCES)) fs.writeFileSync(path.join(dir, 'src', f), text);
    built = await esbuild.build({
      absWorkingDir: dir, entryPoints: { entry: 'src/entry.ts' }, outdir: 'esm', bundle: true, splitting: true, format: 'esm',
      platform: 'node', target: 'node20', minify: true, sourcemap: true, metafile: true, write: false, chunkNames: '[name]-[hash]', logLevel: 'silent',
    });
    fs.mkdirSync(path.join(dir, 'esm'));
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('the files run under require(): the shared chunk\'s names, node: modules, a lazy part on its first call', async () => {
    rewrite(path.join(dir, 'esm'));
    const files = fs.readdirSync(path.join(dir, 'esm')).filter((f) => f.endsWith('.js'));
    assert.ok(files.some((f) => f.startsWith('chunk-')) && files.some((f) => f.startsWith('lazy-')), `a shared chunk and a lazy part (${files.join(', ')})`);
    for (const f of files) {
      const text = fs.readFileSync(path.join(dir, 'esm', f), 'utf8');
      assert.ok(text.startsWith('"use strict";'), `${f} is strict, as its ES module was`);
      assert.doesNotMatch(text.replace(/`[^`]*`/g, ''), /(^|[;}])(import|export)\s*[{*"]/, `${f} holds no module syntax`);
      assert.doesNotMatch(text, /__toESM|__copyProps|\(0,\w+\.\w+\)/, `${f} holds none of esbuild's CommonJS helpers`);
    }
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the point: the file as VS Code loads an extension's main
    const entry = require(path.join(dir, 'esm', 'entry.js')) as { run(): string; lazy(): Promise<{ later(): string; pluginText: string }> };
    assert.equal(entry.run(), '.txt:b.txt MARK_RUN 3');
    const lazyFile = files.find((f) => f.startsWith('lazy-'))!;
    assert.equal(require.cache[path.join(dir, 'esm', lazyFile)], undefined, 'the lazy part is not loaded before its call');
    const lazy = await entry.lazy();
    assert.equal(lazy.later(), '.js:late.js');
    assert.equal(lazy.pluginText, '// a plugin\nimport { spawn } from "node:child_process";\nexport default 1;\n', 'the string that reads like an import is as written');
  });

  it('the source map points each place of the CommonJS file where it pointed in the ES module file', () => {
    const out = fs.mkdtempSync(path.join(dir, 'map-'));
    rewrite(out);
    const esm = built.outputFiles.find((o) => o.path === path.resolve(dir, 'esm', 'entry.js'))!.text;
    const esmMap = JSON.parse(built.outputFiles.find((o) => o.path === path.resolve(dir, 'esm', 'entry.js.map'))!.text) as { mappings: string };
    const cjs = fs.readFileSync(path.join(out, 'entry.js'), 'utf8');
    const cjsMap = JSON.parse(fs.readFileSync(path.join(out, 'entry.js.map'), 'utf8')) as { mappings: string };
    /** The original [source, line, column] of the segment covering `needle` in `text`. */
    const origin = (text: string, map: { mappings: string }, needle: string) => {
      const at = text.indexOf(needle);
      const line = text.slice(0, at).split('\n').length - 1;
      const col = at - (text.lastIndexOf('\n', at - 1) + 1);
      return maps.decodeMappings(map.mappings)[line]!.filter((s) => s[0]! <= col).pop()!.slice(1, 4);
    };
    assert.notEqual(cjs.indexOf('MARK_RUN'), esm.indexOf('MARK_RUN'), 'the text moved (else this test proves nothing)');
    for (const needle of ['MARK_RUN', 'basename("/a/b.txt")', 'import("./lazy-'.replace('import', '__imp_')]) {
      const inEsm = needle.startsWith('__imp_') ? needle.replace('__imp_', 'import') : needle;
      assert.deepEqual(origin(cjs, cjsMap, needle), origin(esm, esmMap, inEsm), needle);
    }
  });

  it('an import the metafile does not list, a missing export or a top-level await fails with the file\'s name', () => {
    const out = fs.mkdtempSync(path.join(dir, 'bad-'));
    assert.throws(() => rewrite(out, (m) => (m.file.endsWith('entry.js') ? { ...m, imports: [...m.imports, { path: 'node:os', kind: 'import-statement' }] } : m)),
      /esm\/entry\.js: import statements of .*; the metafile lists .*node:os/);
    assert.throws(() => rewrite(out, (m) => (m.file.endsWith('entry.js') ? { ...m, exports: [...m.exports, 'gone'] } : m)), /esm\/entry\.js: exports .*the metafile lists .*gone/);
    // A form CommonJS cannot hold: a top-level await (one inside a function is fine).
    const meta = { file: 'tla.js', imports: [], exports: ['x'], own: () => undefined };
    assert.throws(() => convert.esmToCommonJs('const x = await Promise.resolve(1); export { x };', undefined, meta), /tla\.js: a top-level await/);
    assert.match(convert.esmToCommonJs('async function f() { return await 1; } const x = f; export { x };', undefined, meta).code, /module\.exports=\{x\}/);
  });

  it('a source exporting a let or var is named (an importer would hold a copy); a const, a function, a re-export are not', () => {
    const planted: Record<string, string> = {
      'a.ts': 'export let count = 0;\nexport function bump() { count++; }',
      'b.ts': 'let state = 1;\nconst other = 2;\nexport { state as current, other };',
      'c.ts': "export const q = 1;\nexport { count } from './a';\nexport function f() { return q; }",
      'node_modules/jsonc-parser/lib/esm/main.js': 'export var ScanError;\n(function (ScanError) {})(ScanError || (ScanError = {}));',
    };
    assert.deepEqual(convert.exportsAssignedLater([...Object.keys(planted), 'node:fs'], (f) => planted[f]!), ['a.ts (count)', 'b.ts (state)']);
  });
});
