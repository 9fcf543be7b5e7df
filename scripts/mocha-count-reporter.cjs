// mocha's spec output, plus the counts written to a JSON file (`--reporter-option out=<file>`)
// so scripts/test.mjs can add them to the closing line.
/* eslint-disable @typescript-eslint/no-require-imports -- mocha loads reporters with require(), so this file is CommonJS */
'use strict';
const fs = require('node:fs');
const Mocha = require('mocha');

class CountReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const out = options?.reporterOptions?.out;
    const failures = [];
    runner.on('fail', (test, err) => failures.push({ title: test.fullTitle(), error: err?.message ?? String(err) }));
    runner.once('end', () => {
      if (!out) return;
      const s = runner.stats ?? {};
      fs.writeFileSync(out, JSON.stringify({ passed: s.passes ?? 0, failed: s.failures ?? 0, pending: s.pending ?? 0, failures }, null, 2));
    });
  }
}
module.exports = CountReporter;
