// Connecting a CLI takes one press, and so does undoing it (issue #35): "Connect Claude Code" shows
// the settings before and after in a diff editor and asks once; Connect writes our hooks and keeps
// the person's file (comments too); "Disconnect Claude Code" gives the file back byte for byte.
// The hook command it installs runs bin/bridge.js with this extension host's own runtime. This
// tree has no dist/bridge.js yet, so the test puts a stand-in bridge.js beside the launcher (after
// Connect) and runs the launcher the settings name. VS Code refuses modal dialogs in its test mode,
// so the test answers the question through the app's `connector.ask` (what the modal would show is
// checked as text). Screenshots in Light Modern and Dark Modern: connect-claude-code-light / -dark
// (the diff editor the person reads while the question is open).
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { driver, driverAvailable } from './helpers/driver';
import { testEnv } from './helpers/env';
import { defaultTheme, theme } from './helpers/theme';
import { theApp, until } from './cards-helpers';
import type { App } from '../../src/editor/extension';

const SETTINGS = `{
  // Ada's own settings: kept as they are
  "model": "opus",
  "hooks": {
    "Stop": [ { "hooks": [ { "type": "command", "command": "say done" } ] } ]
  }
}
`;

/** The before/after documents' scheme (connect/cli-connector.ts PREVIEW_SCHEME; not imported: the test bundle leaves jsonc-parser's UMD build unresolved). */
const PREVIEW_SCHEME = 'assistant-cards-settings';
const diffTabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs)
  .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.scheme === PREVIEW_SCHEME);

describe('connect a CLI (Claude Code)', function () {
  this.timeout(120_000);
  let dir: string;
  let app: App;
  let original: App['connector']['ask'] | undefined;
  const asked: { question: string; detail: string }[] = [];
  /** Answers the next question with `yes`, after `meanwhile` (the diff is open then). */
  const answer = (yes: boolean, meanwhile: () => Promise<void> = async () => undefined) => {
    app.connector.ask = async (question, detail) => { asked.push({ question, detail }); await meanwhile(); return yes; };
  };
  const saved: Record<string, string | undefined> = {};

  before(async function () {
    app = await theApp();
    original = app.connector.ask;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-connect-'));
    fs.mkdirSync(path.join(dir, 'claude'));
    fs.writeFileSync(path.join(dir, 'claude', 'settings.json'), SETTINGS);
    // The extension runs in this process: its next Connect reads these.
    for (const [k, v] of Object.entries({ CLAUDE_CONFIG_DIR: path.join(dir, 'claude'), ASSISTANT_CARDS_HOME: path.join(dir, 'home') })) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
  });

  after(async () => {
    if (app && original) app.connector.ask = original;
    for (const [k, v] of Object.entries(saved)) { if (v === undefined) delete process.env[k]; else process.env[k] = v; }
    await defaultTheme();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('Connect shows the change and asks once; Cancel writes nothing', async () => {
    answer(false, () => until('the diff of settings.json', () => diffTabs().length === 1, 20_000).then(() => undefined));
    assert.equal(await vscode.commands.executeCommand<string>('assistantCards.connectCli', 'claude-code'), 'cancelled');
    assert.equal(asked.length, 1);
    assert.equal(fs.readFileSync(path.join(dir, 'claude', 'settings.json'), 'utf8'), SETTINGS);
    await until('the diff closed', () => diffTabs().length === 0, 10_000);
  });

  it('Connect adds our hooks on one press, keeping the file; the launcher runs bridge.js with this runtime', async () => {
    answer(true, async () => {
      await until('the diff of settings.json', () => diffTabs().length === 1, 20_000);
      const diff = diffTabs()[0]?.input as vscode.TabInputTextDiff;
      const after = await vscode.workspace.openTextDocument(diff.modified);
      assert.ok(after.getText().startsWith(SETTINGS.slice(0, 60)) && after.getText().includes('assistant-cards-hook'), 'after: the file with our hooks');
      assert.equal((await vscode.workspace.openTextDocument(diff.original)).getText(), SETTINGS, 'before: the file as it is');
      if (!driverAvailable()) return;
      await driver.waitFor({ selector: '.monaco-diff-editor' });
      for (const name of ['Default Light Modern', 'Default Dark Modern'] as const) {
        await theme(name);
        await driver.screenshot(`connect-claude-code-${name.includes('Light') ? 'light' : 'dark'}`);
      }
    });
    assert.equal(await vscode.commands.executeCommand<string>('assistantCards.connectCli', 'claude-code'), 'connected');
    const question = asked.at(-1);
    assert.equal(question?.question, 'Connect Claude Code to Assistant Cards?');
    assert.match(question?.detail ?? '', /settings\.json, under "hooks", one hook of Assistant Cards for each of: SessionStart, SessionEnd, PermissionRequest, Notification, UserPromptSubmit, PostToolUse, Stop\./);
    assert.match(question?.detail ?? '', /PermissionRequest waits up to 600 s/);
    await until('the diff closed', () => diffTabs().length === 0, 10_000);

    const file = fs.readFileSync(path.join(dir, 'claude', 'settings.json'), 'utf8');
    assert.ok(file.startsWith('{\n  // Ada\'s own settings: kept as they are\n  "model": "opus",\n'), file);
    const hooks = (JSON.parse(file.replace(/\/\/[^\n]*/g, '')) as { hooks: Record<string, { hooks: { command: string; timeout: number }[] }[]> }).hooks;
    assert.deepEqual(Object.keys(hooks).sort(), ['Notification', 'PermissionRequest', 'PostToolUse', 'SessionEnd', 'SessionStart', 'Stop', 'UserPromptSubmit']);
    const launcher = path.join(dir, 'home', 'bin', process.platform === 'win32' ? 'assistant-cards-hook.cmd' : 'assistant-cards-hook');
    const command = hooks.PermissionRequest?.[0]?.hooks[0]?.command ?? '';
    // PermissionRequest's command gives the bridge its wait, 10 s under the hook's timeout.
    assert.ok(command.endsWith(' hook claude-code --wait 590') && command.includes(launcher), command);
    assert.equal(hooks.Stop?.[0]?.hooks[0]?.command, 'say done', 'the person\'s Stop hook first, as it was');

    // The launcher: this extension host's runtime, as Node.
    assert.ok(fs.readFileSync(launcher, 'utf8').includes(process.execPath));
    if (process.platform !== 'win32') {
      const quiet = spawnSync('/bin/sh', ['-c', command], { input: '{}', encoding: 'utf8' });
      if (!fs.existsSync(path.join(testEnv.root, 'dist', 'bridge.js'))) {
        assert.deepEqual([quiet.status, quiet.stdout], [0, ''], 'no bridge.js yet: the hook prints nothing and exits 0');
      }
      fs.writeFileSync(path.join(dir, 'home', 'bin', 'bridge.js'), "let s='';process.stdin.on('data',(d)=>{s+=d;}).on('end',()=>process.stdout.write(JSON.stringify({argv:process.argv.slice(2),stdin:s})));\n");
      const ran = spawnSync('/bin/sh', ['-c', command], { input: '{"hook_event_name":"Stop"}', encoding: 'utf8' });
      assert.equal(ran.status, 0, ran.stderr);
      const got = JSON.parse(ran.stdout) as { argv: string[]; stdin: string };
      // On Linux with curl the launcher reads the event first (for the hook host) and hands it on with a newline after it.
      assert.deepEqual({ ...got, stdin: got.stdin.replace(/\n$/, '') }, { argv: ['hook', 'claude-code', '--wait', '590'], stdin: '{"hook_event_name":"Stop"}' });
    }
  });

  it('Connect again adds nothing; Disconnect gives the file back as it was, on one press', async () => {
    const before = asked.length;
    assert.equal(await vscode.commands.executeCommand<string>('assistantCards.connectCli', 'claude-code'), 'already');
    assert.equal(asked.length, before, 'nothing to ask');
    assert.equal(await vscode.commands.executeCommand<string>('assistantCards.disconnectCli', 'claude-code'), 'disconnected');
    assert.equal(fs.readFileSync(path.join(dir, 'claude', 'settings.json'), 'utf8'), SETTINGS);
    assert.equal(await vscode.commands.executeCommand<string>('assistantCards.disconnectCli', 'claude-code'), 'absent');
  });

  it('a settings file that does not parse is named and left as it is', async () => {
    const broken = '{\n  "model": "opus",,\n}\n';
    fs.writeFileSync(path.join(dir, 'claude', 'settings.json'), broken);
    const before = asked.length;
    assert.equal(await vscode.commands.executeCommand<string>('assistantCards.connectCli', 'claude-code'), 'refused');
    assert.equal(fs.readFileSync(path.join(dir, 'claude', 'settings.json'), 'utf8'), broken);
    assert.equal(asked.length, before, 'nothing asked');
  });
});
