// The Assistants view shows every adapter's CLI as a row of its own, after the assistants (#54
// item 5): its name, "connected" or "not connected", and the file its hooks are (or would be) in;
// the row's inline action is Disconnect or Connect by its contextValue.
import '../../bench/with-vscode-stub'; // first: src/editor modules import `vscode`
import { strict as assert } from 'node:assert';
import type * as vscode from 'vscode';
import type { Assistant } from '../../src/api/schemas';
import { AssistantsTree, type AssistantsTreeNode } from '../../src/editor/assistants/assistants-view';
import { TreeViewSlot } from '../../src/editor/base/tree-view-slot';
import { ConnectedClis } from '../../src/editor/connect/connected-clis';
import type { TerminalMatcher } from '../../src/editor/assistants/terminals';

const matcher = { onDidChange: () => ({ dispose() {} }), terminalFor: () => undefined, terminalOf: () => undefined } as unknown as TerminalMatcher;
const ASSISTANT = {
  id: 'ast_1', name: 'api', app: 'claude-code', appName: 'Claude Code', machine: { id: 'mch_1', name: 'laptop' }, agents: [],
} as unknown as Assistant;

describe('every CLI as a row of the Assistants view, connected or not', () => {
  it('one row per CLI after the assistants, naming it, "connected" or "not connected" and its hooks file; its inline action by contextValue; redrawn when one connects', () => {
    const connected = new ConnectedClis();
    const tree = new AssistantsTree({ list: () => [ASSISTANT] }, matcher, new TreeViewSlot<AssistantsTreeNode>('assistantCards.assistants'), Date.now, connected);
    let changes = 0;
    tree.onDidChangeTreeData(() => { changes++; });
    assert.deepEqual(tree.getChildren().map((n) => n.kind), ['assistant'], 'not looked yet: no CLI row');

    connected.set([
      { id: 'claude-code', name: 'Claude Code', file: '/home/ada/.claude/settings.json', connected: true },
      { id: 'gemini-cli', name: 'Gemini CLI', file: '/home/ada/.gemini/settings.json', connected: false },
    ]);
    assert.equal(changes, 1, 'the view redraws');
    assert.deepEqual(connected.connectedIds(), ['claude-code']);
    const rows = tree.getChildren();
    assert.deepEqual(rows.map((n) => n.kind), ['assistant', 'cli', 'cli']);
    const items = rows.slice(1).map((n) => tree.getTreeItem(n));
    assert.deepEqual(items.map((i) => [i.label, i.description]), [['Claude Code', 'connected'], ['Gemini CLI', 'not connected']]);
    assert.match(String(items[0]!.tooltip), /Claude Code is connected: it asks here as cards\.\nIts hooks of Assistant Cards are in \/home\/ada\/\.claude\/settings\.json\./);
    assert.match(String(items[1]!.tooltip), /Gemini CLI is not connected: what it asks stays in its terminal\.\nConnect adds hooks of Assistant Cards to \/home\/ada\/\.gemini\/settings\.json, after showing you the change\./);
    assert.deepEqual(items.map((i) => i.accessibilityInformation?.label), ['Claude Code, connected to Assistant Cards', 'Gemini CLI, not connected to Assistant Cards']);
    assert.deepEqual(items.map((i) => i.contextValue), ['cli cli:connected cli:claude-code', 'cli cli:notConnected cli:gemini-cli']);
    // package.json's inline entries: Disconnect on /\bcli:connected\b/, Connect on /\bcli:notConnected\b/.
    assert.deepEqual(items.map((i) => [/\bcli:connected\b/.test(i.contextValue!), /\bcli:notConnected\b/.test(i.contextValue!)]), [[true, false], [false, true]]);
    assert.deepEqual(items.map((i) => (i.iconPath as vscode.ThemeIcon).id), ['plug', 'debug-disconnect']);
    assert.deepEqual(tree.getChildren(rows[1]), [], 'a CLI row has no children');
    assert.equal(tree.getParent(rows[1]!), undefined);

    connected.set([
      { id: 'claude-code', name: 'Claude Code', file: '/home/ada/.claude/settings.json', connected: false },
      { id: 'gemini-cli', name: 'Gemini CLI', file: '/home/ada/.gemini/settings.json', connected: true },
    ]);
    assert.equal(changes, 2, 'a CLI connected or disconnected: the view redraws');
    assert.deepEqual(tree.getChildren().slice(1).map((n) => tree.getTreeItem(n).description), ['not connected', 'connected']);
    connected.set([
      { id: 'claude-code', name: 'Claude Code', file: '/home/ada/.claude/settings.json', connected: false },
      { id: 'gemini-cli', name: 'Gemini CLI', file: '/home/ada/.gemini/settings.json', connected: true },
    ]);
    assert.equal(changes, 2, 'the same set again: no redraw');
    tree.dispose();
  });

  it('a name that is not plain text is shown inert', () => {
    const connected = new ConnectedClis();
    connected.set([{ id: 'x', name: 'Evil\u202Eexe.\nname', file: '/f', connected: true }]);
    const tree = new AssistantsTree({ list: () => [] }, matcher, new TreeViewSlot<AssistantsTreeNode>('assistantCards.assistants'), Date.now, connected);
    const label = String(tree.getTreeItem(tree.getChildren()[0]!).label);
    assert.ok(!/[\u202E\n]/.test(label), label);
    tree.dispose();
  });
});
