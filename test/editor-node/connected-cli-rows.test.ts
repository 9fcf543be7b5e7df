// The Assistants view shows each connected CLI as a row of its own, after the assistants (#54
// item 5): its name, "connected", and the file its hooks are in; a Disconnect takes the row away.
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

describe('connected CLIs as rows of the Assistants view', () => {
  it('one row per connected CLI after the assistants, naming it, "connected" and its hooks file; gone on Disconnect', () => {
    const connected = new ConnectedClis();
    const tree = new AssistantsTree({ list: () => [ASSISTANT] }, matcher, new TreeViewSlot<AssistantsTreeNode>('assistantCards.assistants'), Date.now, connected);
    let changes = 0;
    tree.onDidChangeTreeData(() => { changes++; });
    assert.deepEqual(tree.getChildren().map((n) => n.kind), ['assistant'], 'none connected: no CLI row');

    connected.set([
      { id: 'claude-code', name: 'Claude Code', file: '/home/ada/.claude/settings.json' },
      { id: 'gemini-cli', name: 'Gemini CLI', file: '/home/ada/.gemini/settings.json' },
    ]);
    assert.equal(changes, 1, 'the view redraws');
    const rows = tree.getChildren();
    assert.deepEqual(rows.map((n) => n.kind), ['assistant', 'cli', 'cli']);
    const items = rows.slice(1).map((n) => tree.getTreeItem(n));
    assert.deepEqual(items.map((i) => [i.label, i.description]), [['Claude Code', 'connected'], ['Gemini CLI', 'connected']]);
    assert.match(String(items[0]!.tooltip), /Claude Code is connected: it asks here as cards\.\nIts hooks of Assistant Cards are in \/home\/ada\/\.claude\/settings\.json\./);
    assert.equal(items[1]!.accessibilityInformation?.label, 'Gemini CLI, connected to Assistant Cards');
    assert.equal(items[0]!.contextValue, 'connectedCli connectedCli:claude-code');
    assert.equal((items[0]!.iconPath as vscode.ThemeIcon).id, 'plug');
    assert.deepEqual(tree.getChildren(rows[1]), [], 'a CLI row has no children');
    assert.equal(tree.getParent(rows[1]!), undefined);

    connected.set([{ id: 'gemini-cli', name: 'Gemini CLI', file: '/home/ada/.gemini/settings.json' }]);
    assert.equal(changes, 2);
    assert.deepEqual(tree.getChildren().slice(1).map((n) => tree.getTreeItem(n).label), ['Gemini CLI'], 'Claude Code disconnected: its row gone');
    connected.set([{ id: 'gemini-cli', name: 'Gemini CLI', file: '/home/ada/.gemini/settings.json' }]);
    assert.equal(changes, 2, 'the same set again: no redraw');
    tree.dispose();
  });

  it('a name that is not plain text is shown inert', () => {
    const connected = new ConnectedClis();
    connected.set([{ id: 'x', name: 'Evil\u202Eexe.\nname', file: '/f' }]);
    const tree = new AssistantsTree({ list: () => [] }, matcher, new TreeViewSlot<AssistantsTreeNode>('assistantCards.assistants'), Date.now, connected);
    const label = String(tree.getTreeItem(tree.getChildren()[0]!).label);
    assert.ok(!/[\u202E\n]/.test(label), label);
    tree.dispose();
  });
});
