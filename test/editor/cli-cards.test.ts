// Every connected CLI's card in the workbench (#54 items 4-6), in ONE window start (each start
// costs ~20 s of CPU): the five CLIs are connected through their Connect commands (rows of the
// Assistants view say so), then, one table row per CLI, the hook Connect wrote runs in a terminal
// of this window with the event the real CLI writes (test/kit/cli-permission-events.ts; the real
// CLIs are proven in plain Node, test/bridge/real-*.test.ts). Each card shows in the tree, the
// panel and the notification, naming the CLI and its terminal; Approve pressed in the panel is
// printed in that CLI's own format. Then three Claude Code sessions' waiting commands: three
// different titles in the tree (screenshot cli-cards-three-sessions).
//
// OpenCode's row is the event its plugin hands to the same hook (its server is not started here).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { unwire, until, wireForCliTerminal, type World } from './cards-helpers';
import { driver, driverAvailable } from './helpers/driver';
import { inPanel, openFromTree, SIDEBAR } from './helpers/card-panel-ui';
import { notificationText } from './helpers/notifications';
import { testEnv } from './helpers/env';
import { testLog } from './helpers/test-log';
import { closeCliTerminal, shootingSteps } from './helpers/real-cli';
import { CLI_PERMISSION_ROWS, connectedPermissionCommand, type CliPermissionRow } from '../kit/cli-permission-events';
import { permissionCard } from '../../src/bridge/permission-card';
import { adapterOf } from '../../src/bridge/clis/index';
import type { Node } from '../../src/editor/cards/cards-tree';

/** Where each CLI keeps its settings, moved into the test's folder for the whole file. */
const SETTINGS_ENV: Record<CliPermissionRow['cli'], { env: string; file: (dir: string) => string }> = {
  'claude-code': { env: 'CLAUDE_CONFIG_DIR', file: (d) => path.join(d, 'settings.json') },
  codex: { env: 'CODEX_HOME', file: (d) => path.join(d, 'hooks.json') },
  'gemini-cli': { env: 'GEMINI_CLI_HOME', file: (d) => path.join(d, '.gemini', 'settings.json') },
  'copilot-cli': { env: 'COPILOT_HOME', file: (d) => path.join(d, 'hooks', 'assistant-cards.json') },
  opencode: { env: 'XDG_CONFIG_HOME', file: (d) => path.join(d, 'opencode', 'plugins', 'assistant-cards.js') },
};

describe('each connected CLI\'s card in the tree, the panel and the notification (one window)', function () {
  this.timeout(300_000);
  let w: World | undefined;
  let box = '';
  const terminals: vscode.Terminal[] = [];
  const saved: Record<string, string | undefined> = {};
  const step = shootingSteps('cli-cards');

  before(async function () {
    if (!driverAvailable()) this.skip();
    box = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-cards-'));
    // The extension reads these at each Connect and at each look at what is connected: set for the whole file.
    const env: Record<string, string> = { ASSISTANT_CARDS_HOME: path.join(box, 'assistant-cards') };
    for (const row of CLI_PERMISSION_ROWS) env[SETTINGS_ENV[row.cli].env] = path.join(box, row.cli);
    for (const [k, v] of Object.entries(env)) { saved[k] = process.env[k]; process.env[k] = v; }
    w = await wireForCliTerminal();
  });

  after(async () => {
    for (const t of terminals.splice(0)) await closeCliTerminal(t);
    if (w) {
      // Disconnected again, so no later file sees these CLIs connected.
      const ask = w.app.connector.ask;
      for (const row of CLI_PERMISSION_ROWS) await vscode.commands.executeCommand('assistantCards.disconnectCli', row.cli).then(undefined, () => undefined);
      w.app.connector.ask = ask;
    }
    for (const [k, v] of Object.entries(saved)) { if (v === undefined) delete process.env[k]; else process.env[k] = v; }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await unwire(w);
    w = undefined;
    if (box) fs.rmSync(box, { recursive: true, force: true, maxRetries: 5 });
  });

  /** Runs `command` (a hook command Connect wrote) in a new terminal of this window, the event on its stdin; its stdout lands in the returned file. */
  function hookInTerminal(name: string, command: string, event: Record<string, unknown>): { terminal: vscode.Terminal; out: string } {
    const dir = fs.mkdtempSync(path.join(box, 'run-'));
    const input = path.join(dir, 'event.json');
    const out = path.join(dir, 'out.json');
    fs.writeFileSync(input, JSON.stringify(event));
    // `sh` stays the terminal's process (the hook's parent, as the CLI would be): the bridge names it as the session's.
    const terminal = vscode.window.createTerminal({
      name, cwd: event.cwd as string, shellPath: '/bin/sh', shellArgs: ['-c', `${command} < '${input}' > '${out}'; sleep 600`],
      // The sandbox announced itself in its --work folder, the identity file's.
      env: { ASSISTANT_CARDS_HOME: path.dirname(testEnv.machineFile) },
    });
    terminals.push(terminal);
    return { terminal, out };
  }

  /** The Cards view's rows under "Waiting on you", as the tree gives them. */
  function waitingRows(): { id: string; label: string }[] {
    const tree = w!.app.live!.tree;
    const group = (tree.getChildren() as Node[]).find((n) => n.kind === 'group' && n.group === 'pending');
    if (!group) return [];
    return (tree.getChildren(group) as Node[]).flatMap((n) => {
      if (n.kind !== 'card') return [];
      const label = tree.getTreeItem(n).label;
      return [{ id: n.id, label: typeof label === 'string' ? label : label?.label ?? '' }];
    });
  }

  it('Connect for each CLI: each row offers Connect while not connected (the first connected by its row\'s button), then shows as connected with Disconnect, and the context key names it', async () => {
    const app = w!.app;
    const rowAction = (name: string, state: 'connected' | 'not connected', action: string) =>
      `${SIDEBAR} .monaco-list-row[aria-label="${name}, ${state} to Assistant Cards"] .action-label[aria-label^="${action}"]`;
    await vscode.commands.executeCommand('assistantCards.assistants.focus');
    for (const row of CLI_PERMISSION_ROWS) {
      await driver.waitFor({ selector: rowAction(row.name, 'not connected', 'Connect an Assistant CLI'), state: 'attached', timeout: 20_000 });
    }
    const ask = app.connector.ask;
    app.connector.ask = async () => true;
    try {
      const [first, ...rest] = CLI_PERMISSION_ROWS;
      // The row's inline Connect: the command gets the row, and connects that CLI.
      // Selected (a row's inline actions show on the selected or hovered row; the row itself runs nothing).
      await driver.click({ selector: `${SIDEBAR} .monaco-list-row[aria-label="${first!.name}, not connected to Assistant Cards"]` });
      await driver.click({ selector: rowAction(first!.name, 'not connected', 'Connect an Assistant CLI') });
      await until(`${first!.name} connected by its row`, () => app.connectedClis.connectedIds().includes(first!.cli) || undefined, 30_000);
      for (const row of rest) {
        assert.equal(await vscode.commands.executeCommand<string>('assistantCards.connectCli', row.cli), 'connected', row.cli);
      }
    } finally {
      app.connector.ask = ask;
    }
    await until('every CLI told as connected', () => app.connectedClis.connectedIds().length === CLI_PERMISSION_ROWS.length || undefined, 20_000);
    assert.deepEqual(app.connectedClis.connectedIds(), CLI_PERMISSION_ROWS.map((r) => r.cli));
    for (const row of CLI_PERMISSION_ROWS) {
      await driver.waitFor({ selector: rowAction(row.name, 'connected', 'Disconnect an Assistant CLI'), state: 'attached', timeout: 20_000 });
    }
    await driver.screenshot('cli-cards-connected');
  });

  for (const row of CLI_PERMISSION_ROWS) {
    it(`${row.name}: its card in the tree, the panel and the notification, naming ${row.name} and its terminal; Approve printed in its format`, async () => {
      const hook = connectedPermissionCommand(row, fs.readFileSync(SETTINGS_ENV[row.cli].file(path.join(box, row.cli)), 'utf8'));
      assert.ok(hook, `Connect's ${row.permissionEvent} hook for ${row.cli}`);
      const project = fs.mkdtempSync(path.join(box, `${row.cli}-shop-`));
      const command = `make deploy-${row.cli}`;
      const event = row.event({ sessionId: `sess-${row.cli}-${Date.now()}`, cwd: project, command });
      const parsed = adapterOf(row.cli)!.parse(event);
      const title = permissionCard(row.cli, { tool_name: parsed.tool, tool_input: parsed.input }).title;
      assert.ok(title.startsWith(`${row.name} asks`) && title.includes(command), title);
      const terminalName = `${row.cli}: shop`;
      await vscode.commands.executeCommand('notifications.clearAll');
      const { terminal, out } = hookInTerminal(terminalName, hook, event);
      terminal.show(true);
      const core = w!.app.live!.core;
      const card = await step(`${row.cli} card in the model`, () => core.cards.list('pending').find((c) => c.title === title), 60_000);
      // The row: the agent (the folder), then the title, which names the CLI: once (#54).
      const rowLabel = waitingRows().find((r) => r.id === card.id)?.label ?? '';
      assert.equal(rowLabel, `${path.basename(project)}: ${title}`, 'the tree row');

      // The notification: what asks, who, and in which terminal of this window.
      const said = await notificationText(title);
      assert.ok(said.includes(row.name), `${row.name} named: ${said}`);
      assert.ok(said.includes(terminalName), `the terminal named: ${said}`);

      // The panel, opened from its row: the title whole, the CLI, the command and the folder.
      await openFromTree(w!, card.id, title);
      const shown = await driver.text(inPanel('body'));
      for (const words of [title, `Tool: ${row.shellTool}`, command, project]) assert.ok(shown.includes(words), `"${words}" in the panel: ${shown}`);
      await driver.screenshot(`cli-cards-${row.cli}`);
      await driver.click(inPanel('role=button[name="Approve"]'));
      await step(`${row.cli} hook printed Approve`, () => (fs.existsSync(out) && row.allowPrinted.test(fs.readFileSync(out, 'utf8'))) || undefined, 60_000);
      await until('the card done', () => !core.cards.list('pending').some((c) => c.id === card.id) || undefined, 30_000);
    });
  }

  it('three Claude Code sessions\' waiting commands: three different titles in the tree', async () => {
    const row = CLI_PERMISSION_ROWS.find((r) => r.cli === 'claude-code')!;
    const hook = connectedPermissionCommand(row, fs.readFileSync(SETTINGS_ENV[row.cli].file(path.join(box, row.cli)), 'utf8'));
    assert.ok(hook);
    const commands = ['npm test -- --grep checkout', 'git push origin release/2.4', 'rm -rf build && npm run build'];
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const titles = commands.map((command, i) => {
      // Three sessions in folders of one name: their rows' agent (the folder) is the same, the titles tell them apart.
      const project = path.join(box, `three-${i}`, 'shop');
      fs.mkdirSync(project, { recursive: true });
      const event = row.event({ sessionId: `sess-three-${i}-${Date.now()}`, cwd: project, command });
      hookInTerminal(`claude: session ${i + 1}`, hook, event);
      return permissionCard('claude-code', { tool_name: 'Bash', tool_input: event.tool_input }).title;
    });
    assert.equal(new Set(titles).size, 3, `three titles: ${titles.join(' | ')}`);
    const core = w!.app.live!.core;
    const ofTitle = (t: string) => waitingRows().filter((r) => r.label.endsWith(`: ${t}`));
    await step('three cards in the tree', () => titles.every((t) => ofTitle(t).length === 1) || undefined, 60_000);
    const rows = titles.flatMap(ofTitle);
    assert.equal(new Set(rows.map((r) => r.id)).size, 3, 'three rows');
    for (const command of commands) assert.equal(rows.filter((r) => r.label.includes(command)).length, 1, `one row names "${command}"`);
    // The title leads with the CLI's name, so the row says it once: "shop: Claude Code asks to run: …".
    for (const r of rows) assert.ok(r.label.startsWith('shop: ') && r.label.split('Claude Code').length === 2, `the CLI named once: ${r.label}`);
    // As a person sees them: the Cards view, its three rows.
    await vscode.commands.executeCommand('workbench.view.extension.assistantCards');
    await vscode.commands.executeCommand('assistantCards.cards.focus');
    for (const t of titles) await driver.waitFor({ selector: `${SIDEBAR} >> role=treeitem[name=/${t.replace(/[^\w ]/g, '.')}/]`, timeout: 20_000 });
    // A side bar wide enough for the titles (the default cuts them with "…"), then back as it was.
    // (the side bar focused, so the width is its own; the notifications out of the picture).
    await vscode.commands.executeCommand('notifications.hideList');
    await vscode.commands.executeCommand('workbench.action.closePanel');
    // "Increase View Width" grows the part VS Code counts as active, which was not the side bar in
    // code-server (it narrowed): each way is tried, and the side bar's width says which one widened it.
    const width = async () => parseFloat((await driver.styles({ selector: SIDEBAR }, ['width']))[0]?.width ?? '0');
    const steps = async (command: string, n = 12) => { for (let i = 0; i < n; i++) await vscode.commands.executeCommand(command).then(undefined, () => undefined); };
    const before = await width();
    await steps('workbench.action.decreaseViewWidth');
    const wider = await width() > before;
    if (!wider) await steps('workbench.action.increaseViewWidth', 24);
    testLog(`    (side bar ${before} px -> ${await width()} px for the picture)`);
    await driver.screenshot('cli-cards-three-sessions');
    await steps(wider ? 'workbench.action.increaseViewWidth' : 'workbench.action.decreaseViewWidth');
    assert.equal(core.cards.list('pending').filter((c) => titles.includes(c.title)).length, 3);
  });
});
