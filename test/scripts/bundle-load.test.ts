// What loading the release bundle costs in the extension host that plain Node's small `vscode`
// stub hides: esbuild's `__toESM` copied the whole VS Code API (some 300 properties) once per file
// importing it. The esbuild plugin `vscode-once` makes one module require it and hand the files
// an object whose prototype is the API; this checks the bundle lists the API's own properties
// nowhere while it loads.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

// Run in a child: a `vscode` whose own property list counts how often it is read. Any property
// the bundle's module code touches at load is a function (a class it may extend).
const probe = `
const Module = require('node:module');
let listed = 0;
const target = { l10n: { t: (m) => m } };
const api = new Proxy(target, {
  ownKeys(t) { listed++; return Reflect.ownKeys(t); },
  get(t, k) { return k in t ? t[k] : function Stub() {}; },
});
const load = Module._load;
Module._load = function (request, ...rest) { return request === 'vscode' ? api : load.call(this, request, ...rest); };
const m = require(process.argv[1]);
process.stdout.write(JSON.stringify({ listed, activate: typeof m.activate }));
`;

describe('the release bundle loads the vscode API once', function () {
  this.timeout(120_000);
  let dir: string;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-bundle-'));
    const b = spawnSync(process.execPath, ['esbuild.mjs', '--release', '--outdir', dir], { cwd: root, encoding: 'utf8' });
    assert.equal(b.status, 0, `esbuild.mjs --release: ${b.stderr}`);
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('dist/extension.js requires vscode in one place and never copies its properties', async () => {
    // The extension's files: extension.js, its shared chunks and each part it loads later (esbuild.mjs splits it).
    const { releaseParts, EXTENSION_PARTS } = await import('../../scripts/bundle-parts.mjs');
    const parts = releaseParts(dir);
    const files = EXTENSION_PARTS.flatMap((p) => parts[p].files);
    // `require("vscode")`, or esbuild's `__require("vscode")` of its ES module build (minified, maybe from another chunk: `(0,y.a)("vscode")`).
    const requires = files.reduce((n, f) => n + (fs.readFileSync(path.join(dir, f), 'utf8').match(/\("vscode"\)/g)?.length ?? 0), 0);
    assert.equal(requires, 1, `one require of vscode in the extension's files (${files.join(', ')})`);
    const r = spawnSync(process.execPath, ['-e', probe, path.join(dir, 'extension.js')], { cwd: root, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { listed: number; activate: string };
    assert.equal(out.activate, 'function', 'the bundle loaded whole');
    assert.equal(out.listed, 0, 'the API own properties were listed (copied) while the bundle loaded');
  });
});
