// The keybindings the manifest contributes clash with none of this VS Code's own: every default
// keybinding is read from the real workbench ("Open Default Keyboard Shortcuts (JSON)"), so a
// VS Code that starts using one of our keys (or our chord prefix) fails this test.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { testEnv } from './helpers/env';
import { until } from '../kit/until';

const EXTENSION_ID = 'assistant-cards.assistant-cards';

interface Binding { key: string; command: string; when?: string }

/** `{ "key": ..., "command": ..., "when": ... }` entries of the default keybindings document. */
function parseDefaults(text: string): Binding[] {
  const out: Binding[] = [];
  for (const m of text.matchAll(/\{\s*"key":\s*"([^"]+)",\s*"command":\s*"([^"]+)"(?:,\s*"when":\s*"((?:[^"\\]|\\.)*)")?/g)) {
    out.push({ key: m[1] ?? '', command: m[2] ?? '', ...(m[3] !== undefined ? { when: m[3] } : {}) });
  }
  return out;
}

/** Two keys clash when one is the other, or one is the first press of the other's chord. */
function clashes(a: string, b: string): boolean {
  const pa = a.toLowerCase().split(' ');
  const pb = b.toLowerCase().split(' ');
  const n = Math.min(pa.length, pb.length);
  return pa.slice(0, n).join(' ') === pb.slice(0, n).join(' ');
}

describe('keybindings', () => {
  it("clash with none of VS Code's default keybindings, chord prefix included", async function () {
    this.timeout(60_000);
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    const ours = (ext.packageJSON as { contributes: { keybindings?: Binding[] } }).contributes.keybindings ?? [];

    await vscode.commands.executeCommand('workbench.action.openDefaultKeybindingsFile');
    await until('the default keybindings document', () => /"key":/.test(vscode.window.activeTextEditor?.document.getText() ?? ''));
    const text = vscode.window.activeTextEditor?.document.getText() ?? '';
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    // The document lists ours too (one runs a workbench command): every entry that is one of ours is left out.
    const isOurs = (b: Binding) => b.command.startsWith('assistantCards.') || ours.some((o) => o.key === b.key && o.command === b.command);
    const defaults = parseDefaults(text).filter((b) => !isOurs(b) && !b.command.startsWith('-'));
    assert.ok(defaults.length > 300, `read ${defaults.length} default keybindings`);
    fs.mkdirSync(testEnv.artifacts, { recursive: true });
    fs.writeFileSync(path.join(testEnv.artifacts, 'default-keybindings.json'), JSON.stringify(defaults, null, 1));

    assert.ok(ours.length > 0, 'the manifest contributes keybindings');
    const found = ours.flatMap((o) => defaults.filter((d) => clashes(o.key, d.key)).map((d) => `${o.key} (${o.command}) vs ${d.key} (${d.command}${d.when ? ` when ${d.when}` : ''})`));
    assert.deepEqual(found, []);
  });
});
