// Tree bench in plain Node: the real CardsTree over the real CardModel holding 1,000 waiting
// cards, with `vscode` stubbed (bench/vscode-stub.ts). VS Code's own rendering is simulated the way
// the workbench asks a TreeDataProvider: root children, then each group's item, then the
// children of the expanded groups and each child's item.
//  - render1000Ms: that first render (cold, one run), getChildren + getTreeItem over every item.
//  - rebuild1000Ms: every row built again, as when the minute turns ("2 minutes ago") or what a
//    row shows beside its card changes (refreshAll): each card's words are its version's, kept
//    (shared/card-row-words.ts); only the clock's words and the item are made again. The median
//    of five rebuilds after the first render.
//  - rerenderOneItems: one card changes in place (a new version, same group); every element the
//    tree then fires in onDidChangeTreeData is re-rendered as the workbench would (undefined =
//    the whole tree, a group = its item and its children, a card = its item); the count of items
//    the tree built for it (a card's item kept from before is not built again: cards-tree.ts).
//  - rerenderMoveItems: the same for a card that moves from Waiting on you to Waiting on the
//    assistant (answered): the two groups are asked again, their 1,000 rows, 3 items built.
// Prints one JSON line.
import './with-vscode-stub'; // first: src/editor modules import `vscode`
import type { Card } from '../src/api/schemas';
import { CardsTree } from '../src/editor/cards/cards-tree';
import { TreeViewSlot } from '../src/editor/base/tree-view-slot';
import type { Node } from '../src/editor/cards/cards-tree';
import { CardModel } from '../src/sync/card-model';

async function main(): Promise<void> {

  const silent = { info() {}, warn() {}, error() {} };
  // Cards are put in with upsert: nothing here reads from the service.
  const noRead = () => Promise.reject(new Error('the bench reads nothing'));
  const model = new CardModel({
    lists: { read: noRead }, logger: silent, syncSignal: () => undefined,
    readCard: noRead, refresh: noRead, holdClock: { now: () => Date.now(), skewMs: () => 0 },
  });
  model.setScope({ kind: 'machine' });
  const now = new Date().toISOString();
  const card = (i: number, patch: Partial<Card> = {}): Card => ({
    id: `req_bench${String(i).padStart(5, '0')}`, version: 1, status: 'pending', turn: 'you', kind: i % 3 ? 'choice' : 'approval',
    title: `Card number ${i}: which way should the migration go?`, urgency: i % 7 ? 'normal' : 'now', blocking: i % 5 === 0,
    threadId: `thr_${i}`, summary: 'A summary line', createdAt: now, changedAt: now,
    assistant: { id: 'ast_1', name: 'Claude', app: 'claude-code' }, agent: { id: 'agt_1', name: 'main' },
    options: [{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }],
    ...patch,
  } as Card);
  for (let i = 0; i < 1000; i++) model.upsert(card(i));

  const log = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, show() {}, dispose() {} };
  const tree = new CardsTree(model, log as never, new TreeViewSlot<Node>('assistantCards.cards'));
  const expanded = (n: Node) => n.kind === 'group' && (n.group === 'pending' || n.group === 'agent');

  /** Renders an element as the workbench does: its item, then (expanded groups) its children. */
  const renderElement = (n: Node) => {
    tree.getTreeItem(n);
    if (expanded(n)) for (const child of tree.getChildren(n)) tree.getTreeItem(child);
  };
  const renderAll = () => {
    for (const g of tree.getChildren()) renderElement(g);
  };

  tree.renderedItems = 0;
  const t0 = process.hrtime.bigint();
  renderAll();
  const render1000Ms = Number(process.hrtime.bigint() - t0) / 1e6;
  const firstRenderItems = tree.renderedItems;

  // The median of five: the minute turns in an extension that has run a while, its code warm.
  const rebuilds: number[] = [];
  for (let i = 0; i < 5; i++) {
    tree.refreshAll();
    const t1 = process.hrtime.bigint();
    renderAll();
    rebuilds.push(Number(process.hrtime.bigint() - t1) / 1e6);
  }
  const rebuild1000Ms = rebuilds.sort((a, b) => a - b)[2]!;

  const measure = (change: () => void): number => {
    const fired: (Node | undefined)[] = [];
    const sub = tree.onDidChangeTreeData((n) => fired.push(n));
    change();
    sub.dispose();
    tree.renderedItems = 0;
    // The workbench coalesces refreshes of the same element.
    const seen = new Set<Node | undefined>(fired);
    if (seen.has(undefined)) renderAll();
    else for (const n of seen) if (n) renderElement(n);
    return tree.renderedItems;
  };
  const rerenderOneItems = measure(() => model.upsert(card(500, { version: 2, title: 'Card 500, retitled' })));
  const rerenderMoveItems = measure(() => model.upsert(card(501, { version: 2, status: 'answered', turn: 'agent' })));

  process.stdout.write(`${JSON.stringify({ render1000Ms: Math.round(render1000Ms * 100) / 100, rebuild1000Ms: Math.round(rebuild1000Ms * 100) / 100, firstRenderItems, rerenderOneItems, rerenderMoveItems })}\n`);
  tree.dispose();
}

main().then(() => process.exit(0), (e: unknown) => {
  console.error(e);
  process.exit(1);
});
