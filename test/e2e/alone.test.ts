// Tests that stand alone: a handful of extension-host tests, picked from different files and none
// the first of its file, run by `--grep` without the tests before them in their files, pass. Each
// sets up what it needs (a sign-in, a signed-out start, its own cards), so any one test runs by
// itself; a test that leaned on the one before it in its file would fail here. They share one new
// window of the current VS Code (#36: a window each cost ~35 s of the e2e tier apiece); the
// first of them runs in the fresh window, each other after a test of another file.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

/** Each picked test's full title, as mocha greps it (the describe's title, a space, the test's). */
const PICKED = [
  'activation in the workbench (Playwright) shows the welcome view with Sign In when signed out, and takes a screenshot',
  'cards (extension host, sandbox) fills the tree from the sandbox, with badge and status bar count',
  'cards in the workbench (Playwright) Later, then Back',
  'after an hour of use (Playwright) two assistants asking the same question differ in the tree (label and tooltip)',
  'notify: answer from the notification, returns, offline told once (extension host) an approval answered from its notification, then undone from the next one',
  'one press, one path: panel, notification and palette leave the same model (Playwright) undo from the palette: the model and the tree move at once, in one update, and the hold is the model\'s',
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('tests that stand alone', function () {
  this.timeout(20 * 60_000);

  it(`${PICKED.length} host tests from different files, none the first of its file, run by --grep without the tests before them in their files, pass`, () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'assistant-cards-alone-'));
    try {
      const results = path.join(dir, 'results.json');
      const r = spawnSync(process.execPath, [
        path.join(root, 'scripts', 'host-test.mjs'), '--window', 'trusted', '--results', results,
        '--grep', `^(${PICKED.map(escape).join('|')})$`,
      ], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      const counts = fs.existsSync(results)
        ? JSON.parse(fs.readFileSync(results, 'utf8')) as { passed: number; failed: number; failures?: { title: string; error: string }[] }
        : undefined;
      assert.ok(counts, `the host run wrote no results (exit ${r.status}):\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-1000)}`);
      assert.deepEqual(counts.failures?.map((f) => `${f.title}: ${f.error}`) ?? [], [], 'a test that needs another to run first');
      assert.equal(counts.failed, 0, 'no test failed');
      assert.equal(counts.passed, PICKED.length, `${counts.passed} tests ran, not the ${PICKED.length} picked (a title changed?)`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
