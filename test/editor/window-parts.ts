// The current VS Code's trusted window runs its files in two windows side by side (`npm test`'s
// host tier, #36): one window took ~1,150 s of a 2-core run's ~1,210 s, its tests waiting on real
// time (5 s holds, a notification's 30 s, real CLIs) more than on the cores. The second part is
// these files, picked by their measured times (artifacts/test-times.json) to make the two halves
// about even, ~470 s each; every other file runs in the first. Without ASSISTANT_CARDS_TEST_PART
// (a window of its own, the oldest VS Code, `--grep`) every file runs, as before.

/** Files of the second part. */
export const SECOND_PART: ReadonlySet<string> = new Set([
  'panel-a11y.test.js',
  'real-claude.test.js',
  'notify.test.js',
  'two-windows.test.js',
  'panel-live.test.js',
  'real-codex.test.js',
  'desk-next.test.js',
  'every-computer.test.js',
  'views-rebuild.test.js',
]);

/** Whether this window runs `file` (a compiled test file's name): all, or its part's. */
export function inThisPart(file: string, part = process.env.ASSISTANT_CARDS_TEST_PART): boolean {
  if (part === undefined || part === '') return true;
  if (part !== '1' && part !== '2') throw new Error(`ASSISTANT_CARDS_TEST_PART wants 1 or 2, got "${part}"`);
  return SECOND_PART.has(file) === (part === '2');
}
