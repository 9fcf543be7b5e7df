// The cards tree in plain Node (the bench's `vscode` stub): what it tells VS Code to refresh when
// a card changes, and how many items it builds when VS Code then asks again. The workbench is
// played as it asks a TreeDataProvider: a refreshed element's item, and for an expanded group
// its children and each child's item; `undefined` is the whole tree.
import '../../bench/with-vscode-stub'; // first: src/editor modules import `vscode`
import { strict as assert } from 'node:assert';
import type { Card } from '../../src/api/schemas';
import { TreeViewSlot } from '../../src/editor/base/tree-view-slot';
import { CardsTree, type Node } from '../../src/editor/cards/cards-tree';
import { CardModel } from '../../src/sync/card-model';
import { realHoldClock } from '../kit/clocks';

const silent = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, show() {}, dispose() {} };
const noRead = () => Promise.reject(new Error('this test reads nothing'));

function world(n: number, computers?: ConstructorParameters<typeof CardsTree>[4]) {
  const model = new CardModel({
    lists: { read: noRead }, logger: silent, syncSignal: () => undefined,
    readCard: noRead, refresh: noRead, holdClock: realHoldClock,
  });
  model.setScope({ kind: 'machine' });
  const at = new Date(Date.now() - 5 * 60_000).toISOString();
  const card = (i: number, patch: Partial<Card> = {}): Card => ({
    id: `req_tree${String(i).padStart(3, '0')}`, version: 1, status: 'pending', turn: 'you', kind: 'choice',
    title: `Card ${i}`, urgency: 'normal', blocking: false, threadId: `thr_${i}`, createdAt: at, changedAt: at,
    assistant: { id: 'ast_1', name: 'Claude', app: 'claude-code' }, options: [{ id: 'a', label: 'A' }],
    ...patch,
  } as Card);
  for (let i = 0; i < n; i++) model.upsert(card(i));
  const tree = new CardsTree(model, silent as never, new TreeViewSlot<Node>('assistantCards.cards'), undefined, computers);
  const expanded = (x: Node) => x.kind === 'group' && (x.group === 'pending' || x.group === 'agent');
  const render = (x: Node) => {
    tree.getTreeItem(x);
    if (expanded(x)) for (const child of tree.getChildren(x)) tree.getTreeItem(child);
  };
  const renderAll = () => { for (const g of tree.getChildren()) render(g); };
  /** What `change` made the tree fire, and the items built when the workbench asks those again. */
  const after = (change: () => void) => {
    const fired: (Node | undefined)[] = [];
    const sub = tree.onDidChangeTreeData((x) => fired.push(x));
    change();
    sub.dispose();
    tree.renderedItems = 0;
    const once = new Set(fired); // the workbench coalesces refreshes of one element
    if (once.has(undefined)) renderAll(); else for (const x of once) if (x) render(x);
    return { fired: [...once].map((x) => (x === undefined ? 'all' : x.kind === 'group' ? `group:${x.group}` : x.kind === 'card' ? `card:${x.id}` : x.kind)), built: tree.renderedItems };
  };
  return { model, tree, card, renderAll, after };
}

describe('cards tree: what a change re-renders', () => {
  it('a card that changes group refreshes the two groups it leaves and enters, and builds only their rows and its own item', () => {
    const w = world(10);
    w.renderAll();
    const { fired, built } = w.after(() => w.model.upsert(w.card(4, { version: 2, status: 'answered', turn: 'agent' })));
    assert.deepEqual(fired.sort(), ['group:agent', 'group:pending'], 'never the whole tree nor any other group');
    // VS Code asks both groups for all their children again: 9 cards stay in Waiting on you, and
    // their items are the ones already built. Built again: the two group rows (their counts) and
    // the card that moved.
    assert.equal(built, 3);
    assert.equal(w.tree.getChildren().length, 5);
    w.tree.dispose();
  });

  it('a card that changes in place refreshes its own item only', () => {
    const w = world(10);
    w.renderAll();
    const { fired, built } = w.after(() => w.model.upsert(w.card(2, { version: 2, title: 'Card 2, retitled' })));
    assert.deepEqual(fired, ['card:req_tree002']);
    assert.equal(built, 1);
    w.tree.dispose();
  });

  it('a kept item is built again once the minute turns (its "how long ago" words)', () => {
    const w = world(3);
    w.renderAll();
    const realNow = Date.now;
    try {
      const { built: sameMinute } = w.after(() => w.model.upsert(w.card(1, { version: 2, status: 'answered', turn: 'agent' })));
      assert.equal(sameMinute, 3, 'two group rows and the card that moved');
      const later = realNow() + 61_000;
      Date.now = () => later;
      const { built: nextMinute } = w.after(() => w.model.upsert(w.card(0, { version: 2, status: 'answered', turn: 'agent' })));
      assert.equal(nextMinute, 2 + 3, 'two group rows and every card of both groups');
    } finally {
      Date.now = realNow;
      w.tree.dispose();
    }
  });

  it('a card whose hold ends is built again without Undo (same card, same minute)', async () => {
    const w = world(2);
    const undoUntil = new Date(Date.now() + 150).toISOString();
    w.model.upsert(w.card(0, { version: 2, status: 'answered', turn: 'you', undoUntil } as Partial<Card>));
    w.renderAll();
    const node = w.tree.nodeOf('req_tree000')!;
    const held = w.tree.getTreeItem(node);
    assert.match(String(held.contextValue), /\bcard:held\b/);
    // The tree fires the card's node when its hold ends.
    await new Promise<void>((resolve) => {
      const sub = w.tree.onDidChangeTreeData((x) => { if (x === node) { sub.dispose(); resolve(); } });
    });
    const after = w.tree.getTreeItem(node);
    assert.notEqual(after, held);
    assert.doesNotMatch(String(after.contextValue), /\bcard:held\b/);
    w.tree.dispose();
  });

  it('refreshAll builds every row again: a row names its computer once every computer\'s cards show (same card, same minute)', () => {
    let named = false;
    const w = world(2, { named: () => named, thisId: () => 'mch_here' });
    w.model.upsert(w.card(0, { version: 2, machine: { id: 'mch_far', name: 'Tower' } } as Partial<Card>));
    w.renderAll();
    const node = w.tree.nodeOf('req_tree000')!;
    assert.doesNotMatch(String(w.tree.getTreeItem(node).description), /Tower/);
    named = true; // assistantCards.scope became `everywhere`: live-parts.ts calls refreshAll
    const { fired } = w.after(() => w.tree.refreshAll());
    assert.deepEqual(fired, ['all']);
    assert.match(String(w.tree.getTreeItem(node).description), /Tower/);
    w.tree.dispose();
  });
});
