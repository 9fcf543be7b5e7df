// The plain-Node tier. `npx mocha` runs every plain-Node test; `npx mocha test/x/y.test.ts` runs
// only the files named (a spec list here would be added to them, running everything).
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS config file: mocha loads it with require */
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
/* eslint-enable @typescript-eslint/no-require-imports */

// The bridge's home of this run, never the person's: hooks keep session keys there and read the
// words file the extension writes (a German window's would turn the tests' English cards German).
process.env.ASSISTANT_CARDS_HOME ??= mkdtempSync(join(tmpdir(), 'ac-test-home-'));

const named = process.argv.slice(2).some((a) => !a.startsWith('-') && /\.(test\.)?ts$/.test(a));
module.exports = {
  require: ['tsx/cjs'],
  extension: ['ts'],
  ...(named ? {} : {
    spec: [
      'test/api/**/*.test.ts',
      'test/auth/**/*.test.ts',
      'test/sync/**/*.test.ts',
      'test/sandbox/**/*.test.ts',
      'test/scripts/**/*.test.ts',
      'test/media/**/*.test.ts',
      'test/shared/**/*.test.ts',
      'test/kit/**/*.test.ts',
      'test/bridge/**/*.test.ts',
      'test/editor-node/**/*.test.ts',
    ],
  }),
  timeout: 90000,
  exit: true,
  'forbid-only': true,
};
