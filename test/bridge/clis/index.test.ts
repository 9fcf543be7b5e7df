// The CLI adapters (#54): each parses its own events into the neutral event and prints a decision
// in its CLI's format; the two commands and the manifest's entries serve every CLI of the list.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import { ADAPTERS, CLIS, adapterOf } from '../../../src/bridge/clis/index';
import { geminiCli, GEMINI_ASKING_TOOLS } from '../../../src/bridge/clis/gemini-cli';
import { copilotCli, copilotHookFile } from '../../../src/bridge/clis/copilot-cli';
import { openCode } from '../../../src/bridge/clis/opencode';
import { openCodePlugin, openCodePluginCommand } from '../../../src/bridge/clis/opencode-plugin';
import { transformSync } from 'esbuild';
import { holdsOurs, planConnect, planDisconnect } from '../../../src/bridge/connect-settings';
import { COMMAND_NAMES } from '../../../src/shared/command-names';

const root = path.join(__dirname, '..', '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  contributes: { commands: { command: string }[]; menus: Record<string, { command: string; when?: string }[]> };
};
const nls = (lang: string) => JSON.parse(fs.readFileSync(path.join(root, `package.nls${lang}.json`), 'utf8')) as Record<string, string>;

describe('CLI adapters: one per CLI, the rest follows the list', () => {
  it('two commands for every CLI, not one pair per CLI: Connect while one is not connected, Disconnect while one is; a row\'s inline action by its state; the welcome links to Connect (#53/#54)', () => {
    assert.deepEqual(ADAPTERS.map((a) => a.id), [...CLIS]);
    assert.deepEqual(COMMAND_NAMES.filter((n) => /^(dis)?connect/.test(n)), ['connectCli', 'disconnectCli'], 'no command of its own for a CLI');
    assert.deepEqual(manifest.contributes.commands.map((c) => c.command).filter((c) => /\.(dis)?connect/.test(c)), ['assistantCards.connectCli', 'assistantCards.disconnectCli']);
    for (const lang of ['', '.de', '.ja']) {
      assert.doesNotMatch(JSON.stringify(nls(lang)), /command:assistantCards\.(dis)?connect(?!Cli\b)/, `package.nls${lang}.json links no per-CLI command`);
      assert.match(nls(lang)['welcome.assistants.none'] ?? '', /\]\(command:assistantCards\.connectCli\)$/, `package.nls${lang}.json: the welcome links to the one Connect`);
    }
    const menus = manifest.contributes.menus;
    const entries = (where: string, command: string) => (menus[where] ?? []).filter((m) => m.command === `assistantCards.${command}`).map((m) => m.when);
    assert.deepEqual(entries('commandPalette', 'connectCli'), ['!assistantCards.allClisConnected']);
    assert.deepEqual(entries('commandPalette', 'disconnectCli'), ['assistantCards.connectedClis']);
    assert.deepEqual(entries('view/title', 'connectCli'), ['view == assistantCards.assistants && !assistantCards.allClisConnected']);
    assert.deepEqual(entries('view/title', 'disconnectCli'), []);
    assert.deepEqual(entries('view/item/context', 'connectCli'), ['view == assistantCards.assistants && viewItem =~ /\\bcli:notConnected\\b/']);
    assert.deepEqual(entries('view/item/context', 'disconnectCli'), ['view == assistantCards.assistants && viewItem =~ /\\bcli:connected\\b/']);
    const inline = (menus['view/item/context'] ?? []).filter((m) => /(dis)?connectCli$/.test(m.command)) as { group?: string }[];
    assert.ok(inline.every((m) => m.group?.startsWith('inline')), 'on the row itself');
  });

  it('Claude Code and Codex read the same shape; each event kind', () => {
    for (const id of ['claude-code', 'codex']) {
      const a = adapterOf(id)!;
      const base = { session_id: 's', cwd: '/p' };
      assert.deepEqual(a.parse({ ...base, hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command: 'ls' } }),
        { kind: 'permission', name: 'PermissionRequest', sessionId: 's', cwd: '/p', tool: 'Bash', input: { command: 'ls' } });
      assert.equal(a.parse({ ...base, hook_event_name: 'UserPromptSubmit' }).kind, 'prompt');
      assert.equal(a.parse({ ...base, hook_event_name: 'Stop' }).kind, 'went-on');
      assert.equal(a.parse({ ...base, hook_event_name: 'SessionEnd' }).kind, 'end');
      assert.equal(a.parse({ ...base, hook_event_name: 'Notification', notification_type: 'permission_prompt' }).aboutPermission, true);
      assert.deepEqual(JSON.parse(a.print({ behavior: 'deny', message: 'no' })), { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'no' } } });
    }
  });

  it('Gemini CLI: its events, its settings file, BeforeTool on the tools that ask, timeouts in milliseconds, decisions as it reads them', () => {
    const base = { session_id: 'g', cwd: '/p', timestamp: '2026-12-05T00:00:00Z' };
    assert.deepEqual(geminiCli.parse({ ...base, hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command: 'ls' } }),
      { kind: 'permission', name: 'BeforeTool', sessionId: 'g', cwd: '/p', tool: 'run_shell_command', input: { command: 'ls' } });
    assert.equal(geminiCli.parse({ ...base, hook_event_name: 'BeforeAgent' }).kind, 'prompt');
    assert.equal(geminiCli.parse({ ...base, hook_event_name: 'AfterTool' }).kind, 'went-on');
    assert.equal(geminiCli.parse({ ...base, hook_event_name: 'Notification', notification_type: 'ToolPermission', message: 'x' }).aboutPermission, true);
    assert.equal(geminiCli.settingsFile({}, '/home/ada'), path.join('/home/ada', '.gemini', 'settings.json'));
    assert.equal(geminiCli.settingsFile({ GEMINI_CLI_HOME: '/tmp/g' }, '/home/ada'), path.join('/tmp/g', '.gemini', 'settings.json'));
    const entries = geminiCli.entriesFor('/b/assistant-cards-hook hook gemini-cli');
    assert.deepEqual(entries.BeforeTool, { matcher: GEMINI_ASKING_TOOLS, hooks: [{ type: 'command', command: '/b/assistant-cards-hook hook gemini-cli --wait 110', timeout: 120_000 }] });
    assert.equal(entries.SessionStart?.hooks[0]?.timeout, 10_000);
    const re = new RegExp(GEMINI_ASKING_TOOLS);
    for (const t of ['run_shell_command', 'write_file', 'replace', 'web_fetch']) assert.ok(re.test(t), t);
    for (const t of ['read_file', 'list_directory', 'glob', 'run_shell_command_x']) assert.ok(!re.test(t), t);
    assert.deepEqual(JSON.parse(geminiCli.print({ behavior: 'deny', message: 'Not on a Friday' })), { decision: 'deny', reason: 'Not on a Friday' });
    assert.deepEqual(JSON.parse(geminiCli.print({ behavior: 'allow' })), { decision: 'allow' });
  });

  it('Copilot CLI: its events told by their fields (stdin as measured with 1.0.102), its decision, its hook file; registered as `other`', () => {
    const base = { sessionId: 'c', timestamp: 1, cwd: '/p' };
    assert.deepEqual(copilotCli.parse({ hookName: 'permissionRequest', ...base, toolName: 'bash', toolInput: { command: 'ls' }, permissionSuggestions: [] }),
      { kind: 'permission', name: 'permissionRequest', sessionId: 'c', cwd: '/p', tool: 'bash', input: { command: 'ls' } });
    assert.equal(copilotCli.parse({ ...base, source: 'new', initialPrompt: 'Do it.' }).kind, 'live');
    assert.equal(copilotCli.parse({ ...base, prompt: 'Do it.' }).kind, 'prompt');
    assert.equal(copilotCli.parse({ ...base, transcriptPath: '/t', stopReason: 'end_turn', stop_hook_active: false }).kind, 'went-on');
    assert.equal(copilotCli.parse({ ...base, reason: 'complete' }).kind, 'end');
    assert.equal(copilotCli.parse({ ...base, message: 'Run command: ls', hook_event_name: 'Notification', notification_type: 'permission_prompt' }).aboutPermission, true);
    assert.deepEqual(JSON.parse(copilotCli.print({ behavior: 'allow' })), { behavior: 'allow' });
    assert.deepEqual(JSON.parse(copilotCli.print({ behavior: 'deny', message: 'no' })), { behavior: 'deny', message: 'no' });
    assert.equal(copilotCli.serviceApp, 'other');
    assert.deepEqual(copilotHookFile('/b/assistant-cards-hook hook copilot-cli').hooks.permissionRequest,
      [{ type: 'command', bash: '/b/assistant-cards-hook hook copilot-cli --wait 110', timeoutSec: 120 }]);
    assert.equal(copilotCli.settingsFile({}, '/home/ada'), path.join('/home/ada', '.copilot', 'hooks', 'assistant-cards.json'));
  });

  it('Copilot CLI: Connect writes a whole hook file of ours, again over an older one of ours, never over the person\'s; Disconnect removes it', () => {
    const cmd = '/b/assistant-cards-hook hook copilot-cli';
    const made = planConnect(undefined, 'copilot-cli', cmd);
    assert.ok(made.ok && made.changed);
    assert.deepEqual(JSON.parse(made.ok ? made.after : ''), copilotHookFile(cmd));
    assert.equal(holdsOurs(made.ok ? made.after : '', 'copilot-cli'), true);
    const again = planConnect(made.ok ? made.after : '', 'copilot-cli', cmd);
    assert.ok(again.ok && !again.changed);
    const moved = planConnect(made.ok ? made.after : '', 'copilot-cli', '/new/assistant-cards-hook hook copilot-cli');
    assert.ok(moved.ok && moved.changed, 'an older file of ours is replaced');
    const theirs = JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: 'tee -a /tmp/assistant-cards-hook.log', timeoutSec: 5 }] } });
    const refused = planConnect(theirs, 'copilot-cli', cmd);
    assert.ok(!refused.ok && refused.refusal.kind === 'unexpected');
    const gone = planDisconnect(made.ok ? made.after : '', 'copilot-cli');
    assert.ok(gone.ok && gone.changed && gone.remove);
    const kept = planDisconnect(theirs, 'copilot-cli');
    assert.ok(kept.ok && !kept.changed && !kept.remove, 'a file of the person\'s is never removed');
  });

  it('OpenCode: the plugin\'s events as neutral events (the request\'s metadata and patterns on the card), its replies, its config folder', () => {
    const asked = { event: 'permission.asked', session_id: 'ses_1', cwd: '/p', request_id: 'per_1', permission: 'bash', patterns: ['touch a'], metadata: { command: 'touch a' } };
    assert.deepEqual(openCode.parse(asked), { kind: 'permission', name: 'permission.asked', sessionId: 'ses_1', cwd: '/p', tool: 'bash', input: { command: 'touch a', patterns: ['touch a'] } });
    assert.equal(openCode.parse({ event: 'session.deleted', session_id: 'ses_1' }).kind, 'end');
    assert.equal(openCode.parse({ event: 'instance.disposed', session_id: 'ses_1' }).kind, 'end');
    assert.deepEqual(JSON.parse(openCode.print({ behavior: 'allow' })), { reply: 'once' });
    assert.deepEqual(JSON.parse(openCode.print({ behavior: 'deny', message: 'Not on a Friday' })), { reply: 'reject', message: 'Not on a Friday' });
    assert.equal(openCode.settingsFile({}, '/home/ada'), path.join('/home/ada', '.config', 'opencode', 'plugins', 'assistant-cards.js'));
    assert.equal(openCode.settingsFile({ XDG_CONFIG_HOME: '/x' }, '/home/ada'), path.join('/x', 'opencode', 'plugins', 'assistant-cards.js'));
  });

  it('OpenCode: Connect writes a plugin of ours (JavaScript that parses, its command as written); Disconnect removes it; an edited or foreign file is left alone', () => {
    const cmd = "'/home/a b/assistant-cards-hook' hook opencode";
    const made = planConnect(undefined, 'opencode', cmd);
    assert.ok(made.ok && made.changed);
    const text = made.ok ? made.after : '';
    assert.equal(text, openCodePlugin(cmd));
    assert.equal(openCodePluginCommand(text), cmd);
    assert.doesNotThrow(() => transformSync(text, { format: 'esm', loader: 'js' }), 'the plugin is JavaScript');
    assert.equal(holdsOurs(text, 'opencode'), true);
    assert.ok((() => { const p = planConnect(text, 'opencode', cmd); return p.ok && !p.changed; })(), 'connected again: nothing to do');
    const moved = planConnect(text, 'opencode', '/new/assistant-cards-hook hook opencode');
    assert.ok(moved.ok && moved.changed, 'an older plugin of ours is replaced');
    const edited = text.replace('const WAIT_S = 110;', 'const WAIT_S = 5;');
    assert.equal(openCodePluginCommand(edited), undefined);
    const refused = planConnect(edited, 'opencode', cmd);
    assert.ok(!refused.ok && refused.refusal.kind === 'unexpected', 'an edited plugin is not written over');
    assert.ok((() => { const p = planDisconnect(edited, 'opencode'); return p.ok && !p.changed; })(), 'nor removed');
    // A command that only looks like ours (the person's own plugin with our text) is theirs.
    const foreign = openCodePlugin('tee -a /tmp/assistant-cards-hook.log');
    assert.equal(holdsOurs(foreign, 'opencode'), false);
    const gone = planDisconnect(text, 'opencode');
    assert.ok(gone.ok && gone.changed && gone.remove);
    assert.ok((() => { const p = planDisconnect(undefined, 'opencode'); return p.ok && !p.changed; })());
  });
});
