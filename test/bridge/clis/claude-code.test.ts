// Claude Code's "don't ask again" (#54): its PermissionRequest's `permission_suggestions` read as
// the card's "Always allow" (the rule in Claude Code's syntax and the settings file it goes to),
// and the decision printed back with `updatedPermissions`. The suggestion's shape is the one
// Claude Code 2.1.332 sent (docs/cli-hooks.md); test/bridge/real-always-allow.test.ts runs the CLI.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { claudeAlwaysAllow, claudeCode } from '../../../src/bridge/clis/claude-code';
import { ADAPTERS } from '../../../src/bridge/clis/index';

const PROJECT = '/home/dev/shop';
const ENV = { CLAUDE_PROJECT_DIR: PROJECT, CLAUDE_CONFIG_DIR: '/home/dev/.config/claude' };
/** As measured: `npm run build` in the project. */
const MEASURED = { type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'npm run *' }], behavior: 'allow', destination: 'localSettings' };
const event = (suggestions: unknown) => ({ hook_event_name: 'PermissionRequest', tool_name: 'Bash', tool_input: { command: 'npm run build' }, cwd: `${PROJECT}/sub`, permission_suggestions: suggestions });

describe('Claude Code\'s "Always allow" (#54)', () => {
  it('the measured suggestion: the rule as the settings file holds it, in the project\'s settings.local.json (CLAUDE_PROJECT_DIR, not the event\'s cwd)', () => {
    const [a, ...rest] = claudeAlwaysAllow(event([MEASURED]), ENV, '/home/dev');
    assert.deepEqual(rest, []);
    assert.deepEqual(a!.rules, ['Bash(npm run *)']);
    assert.equal(a!.file, path.join(PROJECT, '.claude', 'settings.local.json'));
    assert.deepEqual(a!.grant, MEASURED);
  });

  it('each destination names its file; user settings follow CLAUDE_CONFIG_DIR, else ~/.claude', () => {
    const at = (destination: string, env: NodeJS.ProcessEnv = ENV) => claudeAlwaysAllow(event([{ ...MEASURED, destination }]), env, '/home/dev')[0]?.file;
    assert.equal(at('projectSettings'), path.join(PROJECT, '.claude', 'settings.json'));
    assert.equal(at('userSettings'), '/home/dev/.config/claude/settings.json');
    assert.equal(at('userSettings', { CLAUDE_PROJECT_DIR: PROJECT }), '/home/dev/.claude/settings.json');
    assert.equal(at('session'), undefined, 'for the session only: no settings file, not offered');
    assert.equal(at('cliArg'), undefined);
    assert.equal(at('localSettings', {}), undefined, 'no project folder given: the file cannot be named, not offered');
    assert.equal(at('localSettings', { CLAUDE_PROJECT_DIR: 'relative/dir' }), undefined);
  });

  it('what is not an allow rule for a file is left to the terminal: directories, modes, deny rules, odd shapes', () => {
    const none = [
      { type: 'addDirectories', directories: ['/tmp/probe'], destination: 'session' },
      { type: 'setMode', mode: 'acceptEdits', destination: 'session' },
      { ...MEASURED, behavior: 'deny' },
      { ...MEASURED, rules: [] },
      { ...MEASURED, rules: [{ toolName: '' }] },
      { ...MEASURED, rules: [{ toolName: 'Bash', ruleContent: 7 }] },
      { ...MEASURED, rules: [{ toolName: 'Bash', ruleContent: 'ok *' }, 'not a rule'] },
      null, 'addRules', 3,
    ];
    assert.deepEqual(claudeAlwaysAllow(event(none), ENV, '/home/dev'), []);
    assert.deepEqual(claudeAlwaysAllow(event('not a list'), ENV, '/home/dev'), []);
    assert.deepEqual(claudeAlwaysAllow(event(undefined), ENV, '/home/dev'), []);
  });

  it('hostile rules: one with a line break or a control character has no exact one-line form and is not offered; a look-alike is kept as it came (the panel marks it)', () => {
    const rule = (ruleContent: string) => claudeAlwaysAllow(event([{ ...MEASURED, rules: [{ toolName: 'Bash', ruleContent }] }]), ENV, '/home/dev');
    assert.deepEqual(rule('npm test\ncurl x | sh'), []);
    assert.deepEqual(rule('npm test\u2028rm -rf ~'), []);
    assert.deepEqual(rule('npm \u001b[2Jtest'), []);
    assert.deepEqual(rule('x'.repeat(3_000)), [], 'too long to show whole on a button');
    assert.deepEqual(rule('npm run \u202egnp.exe').map((a) => a.rules), [['Bash(npm run \u202egnp.exe)']]);
    assert.deepEqual(rule('gіt push *').map((a) => a.rules), [['Bash(gіt push *)']]);
  });

  it('the grant is rebuilt from the fields shown: anything else in the suggestion never reaches the CLI', () => {
    const [a] = claudeAlwaysAllow(event([{ ...MEASURED, extra: { defaultMode: 'bypassPermissions' }, rules: [{ toolName: 'Read', hidden: 'x' }] }]), ENV, '/home/dev');
    assert.deepEqual(a!.rules, ['Read'], 'a rule for the whole tool reads as the tool');
    assert.deepEqual(a!.grant, { type: 'addRules', rules: [{ toolName: 'Read' }], behavior: 'allow', destination: 'localSettings' });
  });

  it('at most three choices on one card', () => {
    assert.equal(claudeAlwaysAllow(event(Array.from({ length: 5 }, () => MEASURED)), ENV, '/home/dev').length, 3);
  });

  it('printed: an Always allow goes back as updatedPermissions; a plain allow and a deny as before', () => {
    const [always] = claudeAlwaysAllow(event([MEASURED]), ENV, '/home/dev');
    assert.deepEqual(JSON.parse(claudeCode.print({ behavior: 'allow', always })), {
      hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedPermissions: [MEASURED] } },
    });
    assert.deepEqual(JSON.parse(claudeCode.print({ behavior: 'allow' })), { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow' } } });
    assert.deepEqual(JSON.parse(claudeCode.print({ behavior: 'deny', message: 'no' })), { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'deny', message: 'no' } } });
  });

  it('only Claude Code offers it: Codex, Gemini CLI and Copilot CLI have no such choice, and their print never carries one', () => {
    assert.deepEqual(ADAPTERS.filter((a) => a.alwaysAllow).map((a) => a.id), ['claude-code']);
    const [always] = claudeAlwaysAllow(event([MEASURED]), ENV, '/home/dev');
    for (const a of ADAPTERS.filter((x) => x.id !== 'claude-code')) {
      assert.doesNotMatch(a.print({ behavior: 'allow', always }), /updatedPermissions|addRules|npm run/, a.id);
    }
  });
});
