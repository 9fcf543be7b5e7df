// A folder's `.vscode/settings.json` cannot widen the sign-in or silence blocking cards (#37), as
// the editor reads the settings (the bench's `vscode` stub playing VS Code's configuration: `get`
// gives the folder's value over the person's, as VS Code does, in Restricted Mode too).
import '../../bench/with-vscode-stub'; // first: src/editor modules import `vscode`
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { scopeSetting } from '../../src/editor/cards/card-scope';
import { notifySettingNow } from '../../src/editor/cards/notifier';

type Layers = { defaultValue?: string; globalValue?: string; workspaceValue?: string };
const workspace = vscode.workspace as unknown as { getConfiguration: (section?: string) => unknown };

function withSettings(settings: Record<string, Layers>, run: () => void): void {
  const before = workspace.getConfiguration;
  workspace.getConfiguration = () => ({
    get: (key: string) => { const l = settings[key]; return l?.workspaceValue ?? l?.globalValue ?? l?.defaultValue; },
    inspect: (key: string) => ({ key, ...settings[key] }),
  });
  try { run(); } finally { workspace.getConfiguration = before; }
}

describe('settings a folder cannot widen (the editor)', () => {
  it('a folder\'s "assistantCards.scope": "everywhere" leaves the person\'s scope (no sign-in for every card)', () => {
    withSettings({ scope: { defaultValue: 'workspace', workspaceValue: 'everywhere' } }, () => assert.equal(scopeSetting(), 'workspace'));
    withSettings({ scope: { defaultValue: 'workspace', globalValue: 'machine', workspaceValue: 'everywhere' } }, () => assert.equal(scopeSetting(), 'machine'));
    withSettings({ scope: { defaultValue: 'workspace', globalValue: 'everywhere' } }, () => assert.equal(scopeSetting(), 'everywhere'));
  });

  it('a folder\'s "assistantCards.notify": "off" does not silence blocking cards', () => {
    withSettings({ notify: { defaultValue: 'blocking', workspaceValue: 'off' } }, () => assert.equal(notifySettingNow(), 'blocking'));
    withSettings({ notify: { defaultValue: 'blocking', globalValue: 'off' } }, () => assert.equal(notifySettingNow(), 'off'));
  });
});
