// The plain-Node tier. `npx mocha` runs every plain-Node test; `npx mocha test/x/y.test.ts` runs
// only the files named (a spec list here would be added to them, running everything).
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
      'test/words/**/*.test.ts',
      'test/kit/**/*.test.ts',
      'test/bridge/**/*.test.ts',
      'test/editor-node/**/*.test.ts',
    ],
  }),
  timeout: 90000,
  exit: true,
  'forbid-only': true,
};
