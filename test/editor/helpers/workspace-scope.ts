// The default scope (`workspace`) as a person has it: no scope setting, and a terminal of this
// window matched to the asking agent's live session. Shared by the tests that run in it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/editor/extension';
import { EXTENSION_ID, until, type World } from '../cards-helpers';

/**
 * Clears the scope setting and opens a terminal in a new folder that the agent's live session is
 * matched to. Disposing the answer closes that terminal and removes its folder.
 */
export async function intoWorkspaceScope(world: World): Promise<vscode.Disposable> {
  await vscode.workspace.getConfiguration('assistantCards').update('scope', undefined, vscode.ConfigurationTarget.Global);
  assert.equal(vscode.workspace.getConfiguration('assistantCards').get('scope'), 'workspace');
  const api = await vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID)!.activate();
  const here = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-workspace-scope-'));
  const t = vscode.window.createTerminal({ name: 'assistant here', cwd: here });
  const scope = new vscode.Disposable(() => {
    t.dispose();
    fs.rmSync(here, { recursive: true, force: true });
  });
  const s = await world.sb.control<{ appSessionId: string }>('POST', '/_sandbox/sessions', { agentId: world.agentId, cwd: here });
  let lastRefresh = 0;
  await until('the live session matched to the terminal', async () => {
    const feature = api.assistants();
    if (!feature) return undefined;
    // The core paces its reads: refresh at a person's pace, then match again.
    if (Date.now() - lastRefresh > 2500) { lastRefresh = Date.now(); await world.app.live!.core.assistants.refresh(); }
    await feature.matcher.rematch();
    return feature.matcher.terminalOf(s.appSessionId)?.terminal === t ? true : undefined;
  }, 60_000).catch((e: unknown) => { scope.dispose(); throw e; });
  return scope;
}
