// Answers bench in plain Node, against the sandbox seeded with 1,000 done cards over 30 days
// (three computers, two helpers, a webhook), signed in for real:
//  - answersFirstPageMs: the view's first page shown: the model reads its first page (the done
//    list in slices that come whole, then the open lists: Later, with a helper, waiting) and the real AnswersTree (vscode stubbed) builds every item
//    of it, as the workbench asks: root children, then each child's item.
//  - answersExport1000Ms: all 1,000 rows read (paced by the read budget on the sandbox's manual
//    clock, not timed), then the export of all of them: header, CSV and JSON Lines text, and
//    both files written.
// Also the reads each took and the sandbox minutes the budget spread them over. Prints one JSON line.
import './with-vscode-stub'; // first: src/editor modules import `vscode`
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { exportHeader } from '../src/editor/answers/answers-export';
import { AnswersTree, type AnswersNode } from '../src/editor/answers/answers-view';
import { answersCsv, answersJsonl } from '../src/editor/answers/answer-words';
import { TreeViewSlot } from '../src/editor/base/tree-view-slot';
import { ContextKeys } from '../src/editor/context-keys';
import { makeWorld, signInCore } from '../test/kit';

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

async function main(): Promise<void> {
  const w = await makeWorld({ me: false });
  try {
    const seed = await w.ctl('POST', '/_sandbox/seed/done', { count: 1000, days: 30, machineId: w.machineId });
    if (seed.status !== 200) throw new Error(`seed: ${seed.status}`);
    const core = w.core();
    await signInCore(w, core);
    const reads = () => core.transport.log.filter((l) => l.method === 'GET' && l.path === '/v1/cards').length;
    const log = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, show() {}, dispose() {} };

    const r0 = reads();
    const t0 = process.hrtime.bigint();
    await core.answers.loadFirst();
    const tree = new AnswersTree(core, log as never, new TreeViewSlot<AnswersNode>('assistantCards.answers'), () => true, () => 'UTC', new ContextKeys());
    const top = tree.getChildren();
    for (const n of top) tree.getTreeItem(n);
    const answersFirstPageMs = ms(t0);
    const firstPage = { rows: core.answers.visible().length, items: tree.renderedItems, listReads: reads() - r0 };

    // Every page of the 30 days, paced by the budget on the manual clock.
    const clock0 = w.clock.now();
    let done = false;
    void (async () => {
      while (core.answers.hasMore()) await core.answers.loadMore();
      done = true;
    })();
    await w.advanceUntil(() => done, 5_000, 60 * 60_000);
    const all = core.answers.visible();
    if (all.length !== 1000) throw new Error(`read ${all.length} rows, not 1000`);
    const allReads = { listReads: reads() - r0, sandboxMinutes: Math.round((w.clock.now() - clock0) / 600) / 100 };

    const t1 = process.hrtime.bigint();
    const header = exportHeader(core, undefined, all, false, Date.now());
    const csv = answersCsv(header, all, { timeZone: 'UTC' });
    const jsonl = answersJsonl(header, all, { timeZone: 'UTC' });
    await fs.writeFile(path.join(w.dir, 'answers.csv'), csv);
    await fs.writeFile(path.join(w.dir, 'answers.jsonl'), jsonl);
    const answersExport1000Ms = ms(t1);

    process.stdout.write(`${JSON.stringify({
      answersFirstPageMs, answersExport1000Ms, firstPage, allReads,
      exportBytes: { csv: Buffer.byteLength(csv), jsonl: Buffer.byteLength(jsonl) },
    })}\n`);
    tree.dispose();
  } finally {
    await w.close();
  }
}

main().then(() => process.exit(0), (e: unknown) => {
  console.error(e);
  process.exit(1);
});
