// The tests' own build (`esbuild.mjs --test-handle`: activate() hands out the whole app) never
// lands in dist/ (#37). dist/ is what a development window loads (F5, a window opened with this
// folder as the extension under development, `npm start`'s window), and there any other extension
// can call activate(). On main the host tests built dist/ with the handle and left it there, so
// the next development window handed the app (the core, the secrets' store, the press path) to
// every extension that asked. Run in a copy of the build's inputs: the repository's dist/ (which
// a test window may be loading) is never touched.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

describe('the test handle is never built into dist/', function () {
  this.timeout(180_000);
  let dir: string;
  const esbuild = (...args: string[]) => spawnSync(process.execPath, [path.join(root, 'esbuild.mjs'), ...args], { cwd: dir, encoding: 'utf8' });
  const read = (rel: string) => fs.readFileSync(path.join(dir, rel), 'utf8');

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-test-handle-'));
    // The build's inputs, as they are in the repository (read only: linked).
    for (const f of ['src', 'media', 'node_modules', 'package.json', 'tsconfig.json']) fs.symlinkSync(path.join(root, f), path.join(dir, f));
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('`--test-handle` (the host tests\' build) leaves dist/ as `npm run build` made it, and refuses dist/ as its folder', () => {
    const plain = esbuild();
    assert.equal(plain.status, 0, `node esbuild.mjs: ${plain.stderr}`);
    const asBuilt = read('dist/extension.js');

    const tests = esbuild('--test-handle');
    assert.equal(tests.status, 0, `node esbuild.mjs --test-handle: ${tests.stderr}`);
    assert.equal(read('dist/extension.js'), asBuilt, 'dist/extension.js was rebuilt with the test handle');
    const handle = read('out/test-handle/dist/extension.js');
    assert.notEqual(handle, asBuilt, 'the test handle\'s build differs from the plain one (else this test could not see it in dist/)');

    const intoDist = esbuild('--test-handle', '--outdir', 'dist');
    assert.equal(intoDist.status, 2, 'asked to build the handle into dist/');
    assert.match(intoDist.stderr, /never builds into dist/);
    assert.equal(read('dist/extension.js'), asBuilt);
  });
});
