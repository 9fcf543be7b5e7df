// The checkout as a fresh clone has it, for the `npm start` tests: the files git tracks (and new
// ones it does not ignore), copied into a folder of the test's own.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

/** Copies the checkout's files into `dir` (no node_modules, dist or .cache) and returns `dir`. */
export function copyCheckout(dir: string): string {
  const ls = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
  assert.equal(ls.status, 0, `git ls-files: ${ls.stderr}`);
  for (const file of ls.stdout.split('\0').filter(Boolean)) {
    const from = path.join(root, file);
    const st = fs.lstatSync(from, { throwIfNoEntry: false });
    if (!st?.isFile()) continue; // deleted in the work tree, or a link (node_modules in a worktree)
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.copyFileSync(from, path.join(dir, file));
  }
  return dir;
}
