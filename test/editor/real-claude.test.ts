// The real Claude Code, interactive, in a terminal of this window (the default `workspace` scope),
// asks to run a command. It was connected as a person connects it (the Connect command, one press),
// so its hooks are the launcher and bridge Connect installed. The card shows in the
// tree and the panel with the whole command, the notification names the CLI and the terminal, and
// Approve pressed in the panel lets the CLI run it. The model is scripted (test/bridge).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { unwire, until, wireForCliTerminal, type World } from './cards-helpers';
import { driver } from './helpers/driver';
import { chooseInPanel, inPanel, openFromTree } from './helpers/card-panel-ui';
import { notificationButton, notificationListed, notificationText } from './helpers/notifications';
import { testEnv } from './helpers/env';
import { cardMadeTitled, closeCliTerminal, installedCli, shootingSteps } from './helpers/real-cli';
import { connectThroughCommand, shortenPermissionWait } from './helpers/connect';
import { startScriptedModel, type ScriptedModel, type Step } from '../bridge/scripted-model';
import { permissionCard } from '../../src/bridge/permission-card';

// The title names the command (#54): each card's title is the bridge's for its command.
const titleFor = (command: string) => permissionCard('claude-code', { tool_name: 'Bash', tool_input: { command } }).title;
/** The wait Connect gives Claude Code's PermissionRequest (10 s under its 600 s timeout). */
const CONNECT_WAIT_S = 590;

describe('the real Claude Code in a terminal of this window asks through a card', function () {
  this.timeout(300_000);
  let w: World | undefined;
  let model: ScriptedModel | undefined;
  let terminal: vscode.Terminal | undefined;
  let box = '';
  let bin = '';

  before(function () {
    this.timeout(600_000); // a first install downloads about 400 MB from the npm registry
    bin = installedCli('claude');
  });

  afterEach(async () => {
    await closeCliTerminal(terminal);
    terminal = undefined;
    await model?.close();
    model = undefined;
    await unwire(w);
    w = undefined;
    if (box) fs.rmSync(box, { recursive: true, force: true, maxRetries: 5 });
  });

  /** A sandbox, signed in, default scope; Claude Code started in a terminal of this window asking to run `command`. */
  async function claudeAsks(command: string, waitS: number, o: { inModel?: boolean; steps?: Step[]; title?: string; idleMs?: number } = {}) {
    w = await wireForCliTerminal();
    const home = path.join(box, 'home');
    const config = path.join(home, '.claude');
    const project = path.join(box, 'shop');
    fs.mkdirSync(config, { recursive: true });
    fs.mkdirSync(project);
    model = await startScriptedModel({ claude: o.steps ?? [{ bash: command, description: 'Deploy to staging' }, { text: 'Deployed.' }] });
    // Connected as a person connects it: the Connect command, one press. Its hook command runs the
    // launcher Connect installed (bridge.js beside it, run with this extension host's runtime).
    await connectThroughCommand(w.app, 'claude-code', { CLAUDE_CONFIG_DIR: config, ASSISTANT_CARDS_HOME: path.join(box, 'assistant-cards') });
    if (waitS !== CONNECT_WAIT_S) shortenPermissionWait(path.join(config, 'settings.json'), waitS);
    // Earlier notifications (the sign-in's, Connect's) cleared: the card's own is the one the center shows.
    await vscode.commands.executeCommand('notifications.clearAll');
    const key = 'sk-ant-scripted-model-key-0001';
    // What the first interactive start would ask: onboarding done, this key and this folder trusted.
    fs.writeFileSync(path.join(config, '.claude.json'), JSON.stringify({
      hasCompletedOnboarding: true, theme: 'dark', customApiKeyResponses: { approved: [key.slice(-20)], rejected: [] },
      projects: { [project]: { hasTrustDialogAccepted: true } },
      // How long Claude Code waits idle before its Notification hook says it waits for input (60 s by default).
      ...(o.idleMs !== undefined ? { messageIdleNotifThresholdMs: o.idleMs } : {}),
    }));
    terminal = vscode.window.createTerminal({
      name: 'claude: shop', cwd: project, shellPath: bin, shellArgs: ['--permission-mode', 'default', 'Deploy it to staging.'],
      env: {
        HOME: home, CLAUDE_CONFIG_DIR: config, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: key,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1', DISABLE_TELEMETRY: '1', DISABLE_ERROR_REPORTING: '1',
        // The sandbox process announced itself in its --work folder, the identity file's.
        ASSISTANT_CARDS_HOME: path.dirname(testEnv.machineFile),
      },
    });
    terminal.show(true);
    const core = w.app.live!.core;
    const sb = w.sb;
    // Each step a state with a bound; a timeout names it and keeps a screenshot of the window.
    const step = shootingSteps('real-claude');
    const title = o.title ?? titleFor(command);
    const cardId = await step('the card made on the service (Claude Code started, its hook ran)', () => cardMadeTitled(sb, title), 120_000);
    if (o.inModel === false) return { core, sb, cardId, project };
    // Workspace scope: the card counts once its live session is matched to this terminal.
    const card = await step('the card in the model (its session matched to the terminal)', () => core.cards.list('pending').find((c) => c.id === cardId), 60_000)
      .catch(async (e: unknown) => {
        // What the matcher had to go on: the session's terminal facts, each terminal's pid, the process tree.
        const sessions = core.assistants.list().flatMap((a) => a.agents.flatMap((g) => g.liveSessions));
        const pids = await Promise.all(vscode.window.terminals.map(async (t) => `${t.name}=${String(await t.processId)}`));
        const ps = spawnSync('ps', ['-eo', 'pid,ppid,tty,comm'], { encoding: 'utf8' }).stdout.split('\n').filter((l) => /claude|node|sh\b/.test(l)).join('\n');
        throw new Error(`${(e as Error).message}\nsessions: ${JSON.stringify(sessions)}\nterminals: ${pids.join(', ')}\n${ps}`);
      });
    return { core, sb, cardId, card, project };
  }

  beforeEach(() => { box = fs.mkdtempSync(path.join(os.tmpdir(), 'real-claude-')); });

  it('the card shows the whole command in tree, panel and notification (CLI and terminal named); Approve runs it', async () => {
    const marker = path.join(box, 'deployed.txt');
    const command = `touch ${marker} && echo "deployed to staging"`;
    const { core, card, project } = await claudeAsks(command, CONNECT_WAIT_S);
    if (!card) throw new Error('no card in the model');

    // The README's picture (docs/images/claude-code-card.png): the row in the tree, the whole card
    // with its buttons (the terminal's panel closed for the room), and the notification naming the terminal.
    await openFromTree(w!, card.id, card.title);
    await vscode.commands.executeCommand('workbench.action.closePanel');
    await notificationListed(titleFor(command));
    await driver.screenshot('claude-code-card');

    // The notification: what asks, who, and in which terminal of this window; Show Terminal goes there.
    const said = await notificationText(titleFor(command));
    assert.match(said, /Claude Code/);
    assert.match(said, /claude: shop/, `the terminal is named: ${said}`);
    await vscode.commands.executeCommand('workbench.action.focusFirstEditorGroup');
    await driver.click(notificationButton(titleFor(command), 'Show Terminal'));
    await until('its terminal shown', () => vscode.window.activeTerminal === terminal || undefined, 10_000);

    // The panel, opened from its row in the tree: the whole command and the folder.
    await openFromTree(w!, card.id, card.title);
    const shown = await driver.text(inPanel('body'));
    assert.ok(shown.includes(command), `the whole command in the panel: ${shown}`);
    assert.ok(shown.includes(project), 'the folder it runs in');
    await driver.screenshot('real-claude-approval');
    await driver.click(inPanel('role=button[name="Approve"]'));
    await until('the approved command ran', () => fs.existsSync(marker) || undefined, 60_000);
    await until('the card done', () => !core.cards.list('pending').some((c) => c.id === card.id) || undefined, 30_000);
  });

  it('Decline with a note from the panel: nothing runs, and the note reaches the model', async () => {
    const marker = path.join(box, 'deployed.txt');
    const { card } = await claudeAsks(`touch ${marker}`, CONNECT_WAIT_S);
    await openFromTree(w!, card!.id, card!.title);
    await driver.fill(inPanel('textarea'), 'Not before the release notes are in.');
    await driver.click(inPanel('role=button[name="Decline"]'));
    await until('the note reached the model', () => model!.seenText('anthropic').includes('Not before the release notes are in.') || undefined, 60_000);
    assert.equal(fs.existsSync(marker), false, 'the declined command did not run');
  });

  it('the hook\'s wait runs out: the card is withdrawn and the CLI\'s own prompt, answered in the terminal, decides', async () => {
    const marker = path.join(box, 'deployed.txt');
    // The card lives only as long as the bridge's wait (3 s): it is watched on the service.
    const { sb, cardId } = await claudeAsks(`touch ${marker}`, 3, { inModel: false });
    await until('the card withdrawn on the service', async () => (await sb.control<{ status: string }>('GET', `/_sandbox/cards/${cardId}`)).status === 'done' || undefined, 30_000);
    assert.equal(fs.existsSync(marker), false, 'nothing was answered for the person');
    // Claude Code's own "Do you want to proceed?" is still there: the person answers it in the terminal.
    terminal!.sendText('1', false);
    await until('the command the person allowed in the terminal ran', () => fs.existsSync(marker) || undefined, 60_000);
  });

  it('its question tool (AskUserQuestion) is a choice card; the option picked in the panel is the answer Claude Code gets', async () => {
    const questions = [{ question: 'Which region should staging use?', header: 'Region', multiSelect: false,
      options: [{ label: 'eu-west-1', description: 'Ireland' }, { label: 'us-east-1', description: 'Virginia' }] }];
    const { card } = await claudeAsks('', CONNECT_WAIT_S, { title: questions[0]!.question, steps: [{ tool: 'AskUserQuestion', input: { questions } }, { text: 'Noted.' }] });
    await openFromTree(w!, card!.id, questions[0]!.question);
    await driver.click(inPanel('label.option:has-text("us-east-1")'));
    await driver.click(inPanel('#answer'));
    await until('the answer reached the model', () => /us-east-1/.test(model!.seenText('anthropic').split('Which region should staging use?').slice(2).join(' ')) || undefined, 60_000);
    assert.match(model!.seenText('anthropic'), /questions have been answered/);
  });

  it('a prompt answered in its terminal instead: the command runs and its card closes', async () => {
    const marker = path.join(box, 'deployed.txt');
    const { core, card } = await claudeAsks(`touch ${marker}`, CONNECT_WAIT_S);
    // Claude Code's own "Do you want to proceed?" shows beside the hook: the person answers there.
    terminal!.sendText('1', false);
    await until('the command the person allowed in the terminal ran', () => fs.existsSync(marker) || undefined, 60_000);
    await until('its card closed in the window', () => !core.cards.list('pending').some((c) => c.id === card!.id) || undefined, 30_000);
  });

  it('waiting for input (its Notification hook): a card that does not block, closed by typing in its terminal', async () => {
    const WAITS = 'Claude Code waits for you in its terminal';
    const { core, sb, card, cardId } = await claudeAsks('', CONNECT_WAIT_S, { title: WAITS, idleMs: 1_000, steps: [{ text: 'Staging or production next?' }] });
    assert.equal((await sb.control<{ blocking: boolean }>('GET', `/_sandbox/cards/${cardId}`)).blocking, false, 'it does not block');
    assert.ok(card, 'in the tree of this window');
    terminal!.sendText('Staging, please.', true);
    await until('the waiting card closed by what was typed', () => !core.cards.list('pending').some((c) => c.id === cardId) || undefined, 60_000);
    // UserPromptSubmit runs before Claude Code sends the words on: they reach the model after.
    await until('what was typed reached Claude Code', () => /Staging, please\./.test(model!.seenText('anthropic')) || undefined, 60_000);
  });

  it('Later keeps Claude Code waiting; words written to it from the panel are what it reads, and nothing runs', async () => {
    const marker = path.join(box, 'deployed.txt');
    const { sb, card, cardId } = await claudeAsks(`touch ${marker}`, CONNECT_WAIT_S);
    await openFromTree(w!, card!.id, card!.title);
    await driver.click(inPanel('button:has-text("In 1 hour")'));
    await driver.waitFor(inPanel('.notice:has-text("Put in Later")'));
    await driver.click(inPanel('button:has-text("Back now")'));
    await driver.waitFor(inPanel('#field-message'));
    // Later answered nothing: the hook still waits on the same card.
    assert.notEqual((await sb.control<{ status: string }>('GET', `/_sandbox/cards/${cardId}`)).status, 'done', 'the card still open');
    assert.equal(fs.existsSync(marker), false, 'nothing ran while it was in Later');
    await driver.fill(inPanel('#field-message'), 'Use the blue-green script instead.');
    await driver.click(inPanel('button:has-text("Send")'));
    await until('the words reached the model', () => model!.seenText('anthropic').includes('Use the blue-green script instead.') || undefined, 60_000);
    assert.equal(fs.existsSync(marker), false, 'the command did not run');
  });

  it('handed to a helper: loop only (#52), the helper\'s approval comes back as a proposal, and only the person\'s accept runs it', async () => {
    const marker = path.join(box, 'deployed.txt');
    const { card, cardId } = await claudeAsks(`touch ${marker}`, CONNECT_WAIT_S);
    const sb = w!.sb;
    const helper = await sb.control<{ id: string }>('POST', '/_sandbox/assistants', { name: 'Codex helper', app: 'codex', machineId: w!.machineId });
    await openFromTree(w!, card!.id, card!.title);
    await driver.click(inPanel('button:has-text("Hand over…")'));
    await driver.waitFor({ ...inPanel('select[data-key="handover-assistant"] option:has-text("Codex helper")'), state: 'attached' });
    await chooseInPanel('select[data-key="handover-assistant"]', 'Codex helper');
    // A CLI's command: the pick offers loop alone, so the helper's answer cannot become the CLI's allow.
    assert.match(await driver.text(inPanel('select[data-key="handover-mode"] option:checked')), /^loop/);
    assert.equal(await driver.count(inPanel('select[data-key="handover-mode"] option')), 1, 'loop is the only mode offered');
    await driver.click(inPanel('button[data-key="handover-send"]'));
    await until('with the helper', async () => (await sb.control<{ delegatedTo?: { assistantId: string } }>('GET', `/_sandbox/cards/${cardId}`)).delegatedTo?.assistantId === helper.id || undefined, 30_000);
    assert.equal(fs.existsSync(marker), false, 'handing over answered nothing');
    // The helper may answer once the hold to take it back is over (the test's short hold).
    await until('the helper answered', () => sb.control('POST', `/_sandbox/cards/${cardId}/helper-answer`, { approved: true }).then(() => true, () => undefined), 30_000);
    // Its approval comes back to the person as a proposal: nothing ran on it.
    await driver.waitFor(inPanel('button[data-key="proposal-accept"]'));
    assert.equal(fs.existsSync(marker), false, 'the helper\'s approval alone ran nothing');
    await driver.click(inPanel('button[data-key="proposal-accept"]'));
    await until('the command the person accepted ran', () => fs.existsSync(marker) || undefined, 60_000);
  });
});
