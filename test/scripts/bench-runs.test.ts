// The bench's plain-Node steps still run against today's code: a change to a constructor or to
// what `vscode` offers breaks them here, in `npm test`, not in the next `npm run bench`. Figures
// are not judged (that is the bench's job), only that each step prints its JSON line.
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

function runBench(file: string, env: Record<string, string> = {}): Record<string, unknown> {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench', file)], {
    cwd: root, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000,
  });
  assert.equal(r.status, 0, `bench/${file} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  const last = r.stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(last) as Record<string, unknown>;
}

describe('the bench steps run against the current code', function () {
  this.timeout(150_000);

  it('tree render: the real cards tree over 1,000 cards, with vscode stubbed', () => {
    const out = runBench('tree-render.ts');
    assert.equal(out.firstRenderItems, 1005, 'five groups and 1,000 cards rendered');
    assert.equal(out.rerenderOneItems, 1, 'a card changed in place redraws its own item only');
  });

  it('answers: the first page of 1,000 done cards and the export of all of them', () => {
    const out = runBench('answers.ts');
    // 8 reads of Done (three cards a read) and one of each open list (Later, helper, waiting: empty here).
    assert.deepEqual(out.firstPage, { rows: 24, items: 25, listReads: 11 }, 'a page of 24 and its Load more, three cards a read');
    assert.equal((out.allReads as { listReads: number }).listReads, 337);
  });

  it('sandbox load: signs in through the client core and reads with DPoP proofs', () => {
    const out = runBench('sandbox-load.ts', { BENCH_LOAD_SECONDS: '1', BENCH_LOAD_CONCURRENCY: '2' });
    assert.equal(out.errors, 0);
    assert.ok(Number(out.requests) > 0, 'some reads answered');
  });
});
