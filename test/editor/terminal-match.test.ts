// Live sessions matched to real terminals of this window by tty and by cwd (not only by pid, which
// the demo assistant reports), in the default `workspace` scope: the tty is read from inside the
// terminal's own shell, the session is registered at the sandbox's control surface, and the
// assistants view, the workspace-scoped Cards view and "Go to terminal" all follow the match.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AssistantsFeature } from '../../src/editor/assistants/assistants-feature';
import type { ExtensionApi } from '../../src/editor/extension';
import { EXTENSION_ID, newCard, signInApproved, unwire, until, wire, type World } from './cards-helpers';

describe('terminals matched by tty and by cwd, workspace scope (extension host, sandbox)', function () {
  this.timeout(180_000);
  let w: World;
  let api: ExtensionApi;
  const terminals: vscode.Terminal[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-term-match-'));

  const feature = (): AssistantsFeature => {
    const f = api.assistants();
    assert.ok(f, 'the assistants feature runs for the signed-in core');
    return f;
  };
  const core = () => w.app.live!.core;

  /** An agent of a fresh assistant on this computer, with one live session as given. */
  async function liveAgent(name: string, session: { cwd: string; terminal?: { tty: string } }): Promise<{ agentId: string; sessionId: string }> {
    const a = await w.sb.control<{ id: string }>('POST', '/_sandbox/assistants', { name, app: 'claude-code', machineId: w.machineId });
    const g = await w.sb.control<{ id: string }>('POST', '/_sandbox/agents', { assistantId: a.id, name: 'main' });
    const s = await w.sb.control<{ appSessionId: string }>('POST', '/_sandbox/sessions', { agentId: g.id, ...session });
    return { agentId: g.id, sessionId: s.appSessionId };
  }

  // The core paces its reads: refresh the assistants at a person's pace, then match again.
  let lastRefresh = 0;
  async function matchOf(sessionId: string) {
    if (Date.now() - lastRefresh > 2500) { lastRefresh = Date.now(); await core().assistants.refresh(); }
    await feature().matcher.rematch();
    return feature().matcher.terminalOf(sessionId);
  }

  /** The card shows in the default (workspace) scope and "Go to terminal" lands in `t`. */
  async function cardFollows(agentId: string, title: string, t: vscode.Terminal): Promise<void> {
    const c = await newCard(w, { kind: 'text', title }, agentId);
    await until(`"${title}" in the workspace-scoped Cards view`, () => w.app.live!.tree.visible('pending').some((x) => x.id === c.id), 60_000);
    // Move focus away first so the focus below is the command's doing.
    const other = vscode.window.createTerminal({ name: 'elsewhere' });
    terminals.push(other);
    other.show();
    await until('the other terminal active', () => vscode.window.activeTerminal === other);
    const focused = await vscode.commands.executeCommand<boolean>('assistantCards.focusTerminal', { kind: 'card', id: c.id });
    assert.equal(focused, true);
    await until(`terminal "${t.name}" active after Go to terminal`, () => vscode.window.activeTerminal === t);
  }

  before(async () => {
    w = await wire();
    // wire() sets `machine`; these tests are about the default scope.
    await vscode.workspace.getConfiguration('assistantCards').update('scope', undefined, vscode.ConfigurationTarget.Global);
    assert.equal(vscode.workspace.getConfiguration('assistantCards').get('scope'), 'workspace');
    const ext = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID);
    api = await ext!.activate();
    await signInApproved(w);
  });

  after(async () => {
    for (const t of terminals) t.dispose();
    await unwire(w);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a session that reports only the tty its shell reads matches that terminal', async function () {
    if (process.platform === 'win32') this.skip();
    const t = vscode.window.createTerminal({ name: 'tty probe' });
    terminals.push(t);
    const out = path.join(dir, 'tty.txt');
    // As a person would: ask the terminal's shell which tty it has.
    t.sendText(`tty > '${out}.part' && mv '${out}.part' '${out}'`, true);
    const tty = await until('the shell to print its tty', () => fs.existsSync(out) ? fs.readFileSync(out, 'utf8').trim() || undefined : undefined, 60_000);
    assert.match(tty, /^\/dev\//);
    const { agentId, sessionId } = await liveAgent('Tty assistant', { cwd: '/nowhere/in/particular', terminal: { tty } });
    const m = await until('the session matched', () => matchOf(sessionId), 60_000);
    assert.equal(m.terminal, t);
    assert.equal(m.by, 'tty');
    await cardFollows(agentId, 'Asked from the tty terminal', t);
  });

  it('a session that reports only a cwd matches the one terminal opened there', async () => {
    const here = fs.mkdtempSync(path.join(dir, 'cwd-'));
    const t = vscode.window.createTerminal({ name: 'cwd probe', cwd: here });
    terminals.push(t);
    const { agentId, sessionId } = await liveAgent('Cwd assistant', { cwd: here });
    const m = await until('the session matched', () => matchOf(sessionId), 60_000);
    assert.equal(m.terminal, t);
    assert.equal(m.by, 'cwd');
    await cardFollows(agentId, 'Asked from the cwd terminal', t);
  });
});
