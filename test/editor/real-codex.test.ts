// The real Codex, in a terminal of this window (the default `workspace` scope), asks to run a
// command. It was connected as a person connects it (the Connect Codex command, one press), so its
// hooks.json holds Connect's entries: the launcher and bridge Connect installed. The card shows in
// the tree and the panel with the whole command, and the press in the panel is what Codex does.
//
// Codex runs as `codex exec` in the terminal: its interactive TUI asks the person to trust new hooks
// on its first start (docs/cli-hooks.md), a screen no test should answer for them, and `exec` runs
// approvals through the same PermissionRequest hook once `--approve-for-me` routes them there
// (`--dangerously-bypass-hook-trust` stands for the person's trust, for this run only). The model
// is scripted (test/bridge); its step escalates, so the command asks.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { permissionCard } from '../../src/bridge/permission-card';
import { unwire, until, wireForCliTerminal, type World } from './cards-helpers';
import { driver } from './helpers/driver';
import { inPanel, openFromTree } from './helpers/card-panel-ui';
import { testEnv } from './helpers/env';
import { cardMadeTitled, closeCliTerminal, installedCli, shootingSteps } from './helpers/real-cli';
import { connectThroughCommand } from './helpers/connect';
import { codexConfig } from '../bridge/cli-run';
import { startScriptedModel, type ScriptedModel } from '../bridge/scripted-model';

// The title names the command (#54): each card's title is the bridge's for its command.
const titleFor = (command: string) => permissionCard('codex', { tool_name: 'Bash', tool_input: { command } }).title;

describe('the real Codex in a terminal of this window asks through a card', function () {
  this.timeout(300_000);
  let w: World | undefined;
  let model: ScriptedModel | undefined;
  let terminal: vscode.Terminal | undefined;
  let box = '';
  let bin = '';

  before(function () {
    this.timeout(600_000); // a first install downloads its native build from the npm registry
    bin = installedCli('codex');
  });

  beforeEach(() => { box = fs.mkdtempSync(path.join(os.tmpdir(), 'real-codex-')); });

  afterEach(async () => {
    await closeCliTerminal(terminal);
    terminal = undefined;
    await model?.close();
    model = undefined;
    await unwire(w);
    w = undefined;
    if (box) fs.rmSync(box, { recursive: true, force: true, maxRetries: 5 });
  });

  /** A sandbox, signed in, default scope; Codex, connected through the command, started in a terminal of this window asking to run `command`. */
  async function codexAsks(command: string) {
    w = await wireForCliTerminal();
    const home = path.join(box, 'home');
    const codexHome = path.join(home, '.codex');
    const project = path.join(box, 'shop');
    fs.mkdirSync(codexHome, { recursive: true });
    fs.mkdirSync(project);
    model = await startScriptedModel({ codex: [{ bash: command, escalate: true }, { text: 'All done.' }] });
    fs.writeFileSync(path.join(codexHome, 'config.toml'), codexConfig(model.url));
    await connectThroughCommand(w.app, 'codex', { CODEX_HOME: codexHome, ASSISTANT_CARDS_HOME: path.join(box, 'assistant-cards') });
    const hooks = JSON.parse(fs.readFileSync(path.join(codexHome, 'hooks.json'), 'utf8')) as { hooks: Record<string, unknown> };
    assert.ok(hooks.hooks.PermissionRequest, 'Connect wrote Codex\'s PermissionRequest hook');
    terminal = vscode.window.createTerminal({
      name: 'codex: shop', cwd: project, shellPath: bin,
      shellArgs: ['exec', '--skip-git-repo-check', '--dangerously-bypass-hook-trust', '--approve-for-me', 'Deploy it to staging.'],
      env: {
        HOME: home, CODEX_HOME: codexHome, SCRIPTED_API_KEY: 'sk-scripted-model', RUST_LOG: 'error',
        // The sandbox process announced itself in its --work folder, the identity file's.
        ASSISTANT_CARDS_HOME: path.dirname(testEnv.machineFile),
      },
    });
    terminal.show(true);
    const core = w.app.live!.core;
    const sb = w.sb;
    // Each step a state with a bound; a timeout names it and keeps a screenshot of the window.
    const step = shootingSteps('real-codex');
    const cardId = await step('the card made on the service (Codex started, its hook ran)', () => cardMadeTitled(sb, titleFor(command)), 120_000);
    // Workspace scope: the card counts once Codex's live session is matched to this terminal.
    const card = await step('the card in the model (its session matched to the terminal)', () => core.cards.list('pending').find((c) => c.id === cardId), 60_000);
    return { core, card, project };
  }

  it('its session under this terminal; the whole command and the folder in the panel; Approve runs it; its end removes the session', async () => {
    const marker = path.join(box, 'deployed.txt');
    const command = `touch ${marker} && echo "deployed to staging"`;
    const { core, card, project } = await codexAsks(command);
    // The Assistants view's session is Codex's, under this window's terminal.
    const sessions = core.assistants.list().filter((a) => a.app === 'codex').flatMap((a) => a.agents.flatMap((g) => g.liveSessions));
    assert.equal(sessions.length, 1, `Codex's live session: ${JSON.stringify(sessions)}`);
    await openFromTree(w!, card.id, card.title);
    const shown = await driver.text(inPanel('body'));
    assert.ok(shown.includes(command), `the whole command in the panel: ${shown}`);
    assert.ok(shown.includes(project) || shown.includes(fs.realpathSync(project)), 'the folder it runs in');
    await driver.screenshot('real-codex-approval');
    await driver.click(inPanel('role=button[name="Approve"]'));
    await until('the approved command ran', () => fs.existsSync(marker) || undefined, 60_000);
    await until('the card done', () => !core.cards.list('pending').some((c) => c.id === card.id) || undefined, 30_000);
    // Its work done, `codex exec` ends: its SessionEnd hook ran before it exited, so the view, read
    // again, has no live session of it.
    await until('Codex exited in its terminal', () => terminal!.exitStatus, 60_000);
    await core.assistants.refresh();
    const left = core.assistants.list().filter((a) => a.app === 'codex').flatMap((a) => a.agents.flatMap((g) => g.liveSessions));
    assert.deepEqual(left, [], 'the session\'s end removed it');
  });

  it('Decline with a note from the panel: nothing runs, and the note reaches the model', async () => {
    const marker = path.join(box, 'deployed.txt');
    const { card } = await codexAsks(`touch ${marker}`);
    await openFromTree(w!, card.id, card.title);
    await driver.fill(inPanel('textarea'), 'Not on a Friday, please.');
    await driver.click(inPanel('role=button[name="Decline"]'));
    await until('the note reached the model', () => model!.seenText('openai').includes('Not on a Friday, please.') || undefined, 60_000);
    assert.equal(fs.existsSync(marker), false, 'the declined command did not run');
  });
});
