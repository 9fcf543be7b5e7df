// Screen reader labels in the extension host, against a sandbox this suite starts: every item of
// the cards tree (groups, cards, a notice, a gone card), of the assistants view (assistant, agent,
// live session, gone items) and the status bar signed out and signed in carries a non-empty
// accessibilityInformation.label that says what the item is.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AssistantsFeature } from '../../src/editor/assistants/assistants-feature';
import type { AssistantsTreeNode } from '../../src/editor/assistants/assistants-view';
import type { Node } from '../../src/editor/cards/cards-tree';
import type { ExtensionApi } from '../../src/editor/extension';
import { EXTENSION_ID, newCard, signInApproved, unwire, until, wire, type World } from './cards-helpers';

describe('accessibility labels of tree items and the status bar (extension host, sandbox)', function () {
  this.timeout(120_000);
  let w: World;
  let api: ExtensionApi;

  before(async () => {
    w = await wire();
    api = (await vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID)!.activate());
  });
  after(async () => {
    await unwire(w);
  });

  const core = () => w.app.live!.core;
  const spoken = (item: vscode.TreeItem | vscode.StatusBarItem): string => item.accessibilityInformation?.label ?? '';

  it('the status bar speaks signed out', () => {
    assert.notEqual(core().state.kind, 'online');
    assert.match(spoken(w.app.status.item), /^Assistant Cards: (signed out|this computer is not set up|offline)/);
  });

  it('every cards tree item speaks: groups, cards, a notice and a gone card; and the status bar with counts', async () => {
    await signInApproved(w);
    const a = await newCard(w, { kind: 'choice', title: 'Which database?', options: [{ id: 'pg', label: 'Postgres' }], blocking: true });
    const hook = await w.sb.control<{ url: string }>('POST', '/_sandbox/webhooks', { name: 'Uptime', area: { id: 'prj_web', name: 'Web' } });
    const sent = await fetch(hook.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Site down', severity: 'critical' }) });
    const notice = (await sent.json() as { cardId: string }).cardId;
    const tree = w.app.live!.tree;
    await until('the card and the notice in Waiting on you', () => {
      const ids = tree.visible('pending').map((c) => c.id);
      return ids.includes(a.id) && ids.includes(notice);
    });

    const groups = tree.getChildren() as Node[];
    assert.equal(groups.length, 5);
    const items: { node: Node; label: string }[] = [];
    for (const g of groups) {
      items.push({ node: g, label: spoken(tree.getTreeItem(g)) });
      for (const c of tree.getChildren(g)) items.push({ node: c, label: spoken(tree.getTreeItem(c)) });
    }
    for (const { node, label } of items) assert.ok(label.length > 0, `${JSON.stringify(node)} has a spoken label`);
    const label = (id: string) => items.find((i) => i.node.kind === 'card' && i.node.id === id)?.label;
    assert.match(label(a.id) ?? '', /^Card: Which database\?, asked by Claude, agent main, waiting on you, .*blocking/);
    assert.match(label(notice) ?? '', /^Notice: Site down, from Uptime\b.*, waiting on you, seen once/);
    assert.match(items[0]!.label, /^Group Waiting on you, \d+ cards?$/);
    assert.ok(spoken(tree.getTreeItem({ kind: 'card', id: 'no-such-card' })).length > 0, 'a gone card speaks');

    const waiting = core().cards.counts().waiting;
    await until('the status bar count', () => w.app.status.text.includes(String(waiting)));
    assert.match(spoken(w.app.status.item), new RegExp(`^Assistant Cards: ${waiting} cards wait on you, 1 blocking`));
  });

  it('every assistants view item speaks: assistant, agent, live session and gone items', async () => {
    await w.sb.control('POST', '/_sandbox/sessions', { agentId: w.agentId, appSessionId: 'a11y-1', cwd: '/home/dev/api', terminal: { pid: 4242, tty: '/dev/pts/3', program: 'vscode' } });
    const feature = (): AssistantsFeature => {
      const f = api.assistants();
      assert.ok(f, 'the assistants feature runs for the signed-in core');
      return f;
    };
    await until('the live session listed', async () => {
      await core().assistants.refresh();
      return core().assistants.list().some((x) => x.agents.some((g) => g.liveSessions.some((s) => s.appSessionId === 'a11y-1')));
    });
    const tree = feature().tree;
    const walk = (n?: AssistantsTreeNode): AssistantsTreeNode[] => tree.getChildren(n).flatMap((c) => [c, ...walk(c)]);
    const nodes = walk();
    // The CLIs' rows (connected or not, #53) follow once the settings files were looked at; they speak too (the loop below).
    assert.deepEqual([...new Set(nodes.map((n) => n.kind))].filter((k) => k !== 'cli').sort(), ['agent', 'assistant', 'session']);
    for (const n of nodes) assert.ok(spoken(tree.getTreeItem(n)).length > 0, `${JSON.stringify(n)} has a spoken label`);
    const session = nodes.find((n) => n.kind === 'session')!;
    assert.match(spoken(tree.getTreeItem(session)), /^Session in folder \/home\/dev\/api, not in this window, live /);
    assert.match(spoken(tree.getTreeItem(nodes.find((n) => n.kind === 'assistant')!)), /^Assistant: Claude, /);
    for (const gone of [{ kind: 'assistant', assistantId: 'x' }, { kind: 'agent', assistantId: 'x', agentId: 'y' }, { kind: 'session', assistantId: 'x', agentId: 'y', appSessionId: 'z' }] as AssistantsTreeNode[]) {
      assert.ok(spoken(tree.getTreeItem(gone)).length > 0, `gone ${gone.kind} speaks`);
    }
  });
});
