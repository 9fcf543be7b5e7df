// The default scope (`workspace`) as a person has it: no scope setting, and a terminal of this
// window matched to each asking agent's live session. Shared by the tests that run in it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../../src/editor/extension';
import { EXTENSION_ID, until, type World } from '../cards-helpers';

/** The scope's terminals; disposing it closes them and removes their folders. */
export interface WorkspaceScope extends vscode.Disposable {
  /** The terminal of this window each agent's live session runs in, by agent id. */
  readonly terminals: ReadonlyMap<string, vscode.Terminal>;
  /** The terminal of the world's own agent (the first one asked for). */
  readonly terminal: vscode.Terminal;
}

/**
 * Clears the scope setting and, for each agent (the world's own when none is named), opens a
 * terminal in a new folder that the agent's live session is matched to. Call it again for an
 * agent a test adds; each scope closes its own terminals. `name`: the first terminal's name (the
 * others get a number after it).
 */
export async function intoWorkspaceScope(world: World, agentIds: readonly string[] = [world.agentId], name = 'assistant here'): Promise<WorkspaceScope> {
  await vscode.workspace.getConfiguration('assistantCards').update('scope', undefined, vscode.ConfigurationTarget.Global);
  assert.equal(vscode.workspace.getConfiguration('assistantCards').get('scope'), 'workspace');
  const api = await vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID)!.activate();
  const terminals = new Map<string, vscode.Terminal>();
  const folders: string[] = [];
  const scope: WorkspaceScope = {
    terminals,
    get terminal() { return terminals.get(agentIds[0]!)!; },
    dispose() {
      for (const t of terminals.values()) t.dispose();
      for (const f of folders) fs.rmSync(f, { recursive: true, force: true });
    },
  };
  try {
    const sessions: [string, string][] = [];
    for (const agentId of agentIds) {
      const here = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-workspace-scope-'));
      folders.push(here);
      terminals.set(agentId, vscode.window.createTerminal({ name: terminals.size ? `${name} ${terminals.size + 1}` : name, cwd: here }));
      const s = await world.sb.control<{ appSessionId: string }>('POST', '/_sandbox/sessions', { agentId, cwd: here });
      sessions.push([agentId, s.appSessionId]);
    }
    let lastRefresh = 0;
    await until('the live sessions matched to their terminals', async () => {
      const feature = api.assistants();
      if (!feature) return undefined;
      // The core paces its reads: refresh at a person's pace, then match again.
      if (Date.now() - lastRefresh > 2500) { lastRefresh = Date.now(); await world.app.live!.core.assistants.refresh(); }
      await feature.matcher.rematch();
      return sessions.every(([agentId, id]) => feature.matcher.terminalOf(id)?.terminal === terminals.get(agentId)) || undefined;
    }, 60_000);
  } catch (e) {
    scope.dispose();
    throw e;
  }
  return scope;
}
