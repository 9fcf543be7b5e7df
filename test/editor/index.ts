// The mocha bootstrap the extension host loads (extensionTestsPath -> out/test/editor/index.js).
// It runs every compiled *.test.js next to it (in the untrusted window host-test.mjs opens
// with ASSISTANT_CARDS_TEST_UNTRUSTED=1: only the *.untrusted.test.js ones, and elsewhere all but them;
// likewise the *.pseudo.test.js ones only in the pseudo-locale window, ASSISTANT_CARDS_TEST_LOCALE), prints the spec report into the log file the
// runner follows (the host's console does not reach the terminal), and writes the counts to the
// results file the runner reads. Rejecting makes the host exit non-zero.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';
import { LEFT_OUT_ON_OLDEST, onOldest, PARTLY_ON_OLDEST, unmatchedOnOldest } from './oldest-vscode';
import { inThisPart } from './window-parts';
import { testLog } from './helpers/test-log';

function testFiles(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) testFiles(p, out);
    else if (e.name.endsWith('.test.js')) out.push(p);
  }
  return out.sort();
}

export async function run(): Promise<void> {
  const resultsFile = process.env.ASSISTANT_CARDS_TEST_RESULTS;
  Mocha.reporters.Base.consoleLog = (...args: unknown[]) => testLog(format(...args));

  // forbidOnly: a `.only` left in a test would run it alone and report the rest as never run.
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, reporter: 'spec', forbidOnly: true });
  const grep = process.env.ASSISTANT_CARDS_TEST_GREP;
  if (grep) mocha.grep(new RegExp(grep));
  const untrusted = process.env.ASSISTANT_CARDS_TEST_UNTRUSTED === '1';
  const pseudo = process.env.ASSISTANT_CARDS_TEST_LOCALE !== undefined;
  for (const f of testFiles(__dirname)) {
    if (f.endsWith('.untrusted.test.js') !== untrusted) continue;
    // The pseudo-locale window (--window pseudo) runs its own files only, and only it runs them.
    if (f.endsWith('.pseudo.test.js') !== pseudo) continue;
    // The trusted window's two parts, side by side in `npm test` (window-parts.ts).
    if (!untrusted && !pseudo && !inThisPart(path.basename(f))) continue;
    // The oldest VS Code's tier leaves out what is the same code on both (oldest-vscode.ts says why).
    if (onOldest() && path.basename(f) in LEFT_OUT_ON_OLDEST) { testLog(`left out on the oldest VS Code: ${path.basename(f)}`); continue; }
    mocha.addFile(f);
  }
  if (onOldest()) {
    // Of some files, only the tests about what differs on 1.93 run there (oldest-vscode.ts says why).
    // Loaded here to be pruned; run() then must not load them again (mocha's own lazy flag).
    const m = mocha as unknown as { loadFiles(): void; lazyLoadFiles(on: boolean): void };
    m.loadFiles();
    m.lazyLoadFiles(true);
    const leftOut = new Map<string, number>();
    const titles = new Map<string, string[]>();
    const prune = (suite: Mocha.Suite) => {
      suite.tests = suite.tests.filter((t) => {
        if (!t.file) return true;
        const file = path.basename(t.file);
        const ofFile = titles.get(file) ?? titles.set(file, []).get(file)!;
        ofFile.push(t.fullTitle());
        const part = PARTLY_ON_OLDEST[file];
        if (!part || part.runs.test(t.fullTitle())) return true;
        leftOut.set(file, (leftOut.get(file) ?? 0) + 1);
        return false;
      });
      suite.suites.forEach(prune);
    };
    prune(mocha.suite);
    const unmatched = unmatchedOnOldest(titles);
    if (unmatched.length) {
      unmatched.forEach(testLog);
      throw new Error(`${unmatched.length} selection(s) of oldest-vscode.ts match no test: ${unmatched.join('; ')}`);
    }
    for (const [file, n] of leftOut) testLog(`left out on the oldest VS Code: ${n} test(s) of ${file}`);
  }

  const failures: { title: string; error: string }[] = [];
  // Each test's time, for the run's timings file (scripts/test.mjs writes artifacts/test-times.json).
  const tests: { title: string; file?: string; ms: number; state: string }[] = [];
  const stats = await new Promise<Mocha.Stats>((resolve, reject) => {
    try {
      const runner = mocha.run(() => resolve(runner.stats ?? { passes: 0, failures: 1, pending: 0 } as Mocha.Stats));
      runner.on('fail', (test, err: Error) => failures.push({ title: test.fullTitle(), error: err?.message ?? String(err) }));
      runner.on('test end', (test) => {
        if (test.state === 'passed' || test.state === 'failed') {
          tests.push({ title: test.fullTitle(), ...(test.file ? { file: `test/editor/${path.relative(__dirname, test.file).replace(/\.js$/, '.ts')}` } : {}), ms: test.duration ?? 0, state: test.state });
        }
      });
    } catch (e) {
      reject(e);
    }
  });
  const results = { passed: stats.passes, failed: stats.failures, pending: stats.pending, failures, tests };
  if (resultsFile) fs.writeFileSync(resultsFile, JSON.stringify(results, null, 2));
  if (stats.failures > 0) throw new Error(`${stats.failures} extension-host test(s) failed`);
}
