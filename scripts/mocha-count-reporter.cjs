// mocha's spec output, plus the counts written to a JSON file (`--reporter-option out=<file>`)
// so scripts/test.mjs can add them to the closing line, with each test's time (`tests`: title,
// file, ms, state) for the run's timings file (artifacts/test-times.json).
/* eslint-disable @typescript-eslint/no-require-imports -- mocha loads reporters with require(), so this file is CommonJS */
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Mocha = require('mocha');

class CountReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const out = options?.reporterOptions?.out;
    const failures = [];
    const tests = [];
    const file = (t) => (t.file ? path.relative(process.cwd(), t.file) : undefined);
    runner.on('fail', (test, err) => failures.push({ title: test.fullTitle(), error: err?.message ?? String(err) }));
    // A hook's failure has no duration of a test: only tests are timed.
    runner.on('test end', (test) => {
      if (test.state === 'passed' || test.state === 'failed') tests.push({ title: test.fullTitle(), file: file(test), ms: test.duration ?? 0, state: test.state });
    });
    runner.once('end', () => {
      if (!out) return;
      const s = runner.stats ?? {};
      fs.writeFileSync(out, JSON.stringify({ passed: s.passes ?? 0, failed: s.failures ?? 0, pending: s.pending ?? 0, failures, tests }, null, 2));
    });
  }
}
module.exports = CountReporter;
