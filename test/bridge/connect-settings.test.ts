// What Connect adds to a CLI's user settings and what Disconnect takes out (issue #35): only our
// hook entries, the rest of the file byte for byte (comments and layout too), nothing twice, and
// a file that does not parse is refused, never rewritten.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import {
  EVENTS, EVENT_TIMEOUT_S, HOOK_NAME, PERMISSION_TIMEOUT_S, entriesFor, entriesText, formattingOf, hookCommand,
  planConnect, planDisconnect, settingsFile, shellQuote, type Plan,
} from '../../src/bridge/connect-settings';

const LAUNCHER = '/home/ada/.config/assistant-cards/bin/assistant-cards-hook';
const CLAUDE = hookCommand(LAUNCHER, 'claude-code', 'linux');
const CODEX = hookCommand(LAUNCHER, 'codex', 'linux');

/** The plan's new text (it must be a success). */
const after = (p: Plan): string => {
  assert.ok(p.ok, `refused: ${JSON.stringify(!p.ok && p.refusal)}`);
  return p.after;
};
const hooksOf = (text: string): Record<string, { matcher?: string; hooks: { type: string; command: string; timeout: number }[] }[]> =>
  (JSON.parse(text.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '')) as { hooks: never }).hooks;

/** A person's settings.json with comments, tabs of four spaces, its own hooks and other settings. */
const PERSONS = `{
    // my settings
    "model": "opus", /* keep this */
    "permissions": { "allow": ["Bash(git status)"] },
    "hooks": {
        "Stop": [ { "hooks": [ { "type": "command", "command": "say done" } ] } ],
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [ { "type": "command", "command": "~/bin/check-bash" } ]
            }
        ]
    }
}
`;

describe('connect-settings: the hook entries of Claude Code and Codex', () => {
  it('Claude Code: every event once, the command of ours, PermissionRequest waits PERMISSION_TIMEOUT_S, tool events match every tool', () => {
    const hooks = hooksOf(after(planConnect(undefined, 'claude-code', CLAUDE)));
    assert.deepEqual(Object.keys(hooks), [...EVENTS['claude-code']]);
    assert.deepEqual(EVENTS['claude-code'], ['SessionStart', 'SessionEnd', 'PermissionRequest', 'Notification', 'UserPromptSubmit', 'PostToolUse', 'Stop']);
    assert.deepEqual(hooks.PermissionRequest, [{ matcher: '*', hooks: [{ type: 'command', command: `${CLAUDE} --wait 590`, timeout: PERMISSION_TIMEOUT_S['claude-code'] }] }]);
    assert.deepEqual(hooks.PostToolUse?.[0]?.matcher, '*');
    assert.deepEqual(hooks.SessionStart, [{ hooks: [{ type: 'command', command: CLAUDE, timeout: EVENT_TIMEOUT_S }] }]);
    assert.equal(CLAUDE, `${LAUNCHER} hook claude-code`);
    assert.equal(PERMISSION_TIMEOUT_S['claude-code'], 600);
    assert.equal(PERMISSION_TIMEOUT_S.codex, 120);
  });

  it('Codex: its events (no Notification: Codex has none), no matcher (Codex reads one as a regular expression)', () => {
    const hooks = hooksOf(after(planConnect(undefined, 'codex', CODEX)));
    assert.deepEqual(Object.keys(hooks), ['SessionStart', 'SessionEnd', 'PermissionRequest', 'UserPromptSubmit', 'PostToolUse', 'Stop']);
    assert.deepEqual(hooks.PermissionRequest, [{ hooks: [{ type: 'command', command: `${LAUNCHER} hook codex --wait 110`, timeout: PERMISSION_TIMEOUT_S.codex }] }]);
    assert.ok(Object.values(hooks).every((groups) => groups.every((g) => g.matcher === undefined)));
    // Codex clamps a longer SessionEnd timeout to 3 s, warning in the terminal at each start.
    assert.deepEqual(hooks.SessionEnd, [{ hooks: [{ type: 'command', command: CODEX, timeout: 3 }] }]);
  });

  it('the settings files: CLAUDE_CONFIG_DIR and CODEX_HOME move them, else ~/.claude/settings.json and ~/.codex/hooks.json', () => {
    assert.equal(settingsFile('claude-code', {}, '/home/ada'), path.join('/home/ada', '.claude', 'settings.json'));
    assert.equal(settingsFile('claude-code', { CLAUDE_CONFIG_DIR: '/tmp/c' }, '/home/ada'), path.join('/tmp/c', 'settings.json'));
    assert.equal(settingsFile('codex', {}, '/home/ada'), path.join('/home/ada', '.codex', 'hooks.json'));
    assert.equal(settingsFile('codex', { CODEX_HOME: '/tmp/x' }, '/home/ada'), path.join('/tmp/x', 'hooks.json'));
  });

  it('the launcher path is one shell word: bare when plain, quoted with a space or a quote in it, double quotes on Windows', () => {
    assert.equal(shellQuote('/home/ada/bin/x', 'linux'), '/home/ada/bin/x');
    assert.equal(shellQuote('/Users/Ada Lovelace/x', 'darwin'), "'/Users/Ada Lovelace/x'");
    assert.equal(shellQuote("/home/o'hara/x", 'linux'), "'/home/o'\\''hara/x'");
    assert.equal(hookCommand('C:\\Users\\Ada\\AppData\\Roaming\\assistant-cards\\bin\\assistant-cards-hook.cmd', 'codex', 'win32'),
      '"C:\\Users\\Ada\\AppData\\Roaming\\assistant-cards\\bin\\assistant-cards-hook.cmd" hook codex');
    assert.ok(CLAUDE.includes(HOOK_NAME));
  });

  it('the text shown before accepting is exactly what is added', () => {
    const shown = JSON.parse(entriesText('claude-code', CLAUDE)) as { hooks: unknown };
    assert.deepEqual(shown.hooks, hooksOf(after(planConnect(undefined, 'claude-code', CLAUDE))));
    assert.deepEqual(Object.values(entriesFor('codex', CODEX)).length, EVENTS.codex.length);
  });
});

describe('connect-settings: Connect keeps the file, Disconnect gives it back', () => {
  it('adds our entries after the person\'s own, leaving every other line (comments, layout, their hooks) as it was', () => {
    const text = after(planConnect(PERSONS, 'claude-code', CLAUDE));
    const hooks = hooksOf(text);
    assert.deepEqual(hooks.Stop?.map((g) => g.hooks[0]?.command), ['say done', CLAUDE], 'theirs first, ours after');
    assert.deepEqual(hooks.PreToolUse, [{ matcher: 'Bash', hooks: [{ type: 'command', command: '~/bin/check-bash' }] }], 'an event we do not use is untouched');
    for (const line of ['    // my settings', '    "model": "opus", /* keep this */', '    "permissions": { "allow": ["Bash(git status)"] },', '                "matcher": "Bash",']) {
      assert.ok(text.split('\n').includes(line), `kept: ${line}`);
    }
    // What is added is laid out like the file: four spaces a level.
    assert.match(text, /\n {8}"SessionStart": \[\n {12}\{\n {16}"hooks": \[/);
  });

  it('Disconnect after Connect gives back the very same text', () => {
    for (const cli of ['claude-code', 'codex'] as const) {
      const connected = after(planConnect(PERSONS, cli, hookCommand(LAUNCHER, cli, 'linux')));
      const back = planDisconnect(connected);
      assert.ok(back.ok && back.changed);
      assert.equal(back.after, PERSONS, cli);
      assert.deepEqual([...back.events].sort(), [...EVENTS[cli]].sort());
    }
  });

  it('connecting twice adds nothing; connecting both CLIs to one file keeps both', () => {
    const once = after(planConnect(PERSONS, 'claude-code', CLAUDE));
    const twice = planConnect(once, 'claude-code', CLAUDE);
    assert.ok(twice.ok);
    assert.equal(twice.changed, false);
    assert.equal(twice.after, once);
    assert.deepEqual(twice.events, []);
  });

  it('an older entry of ours (another launcher path, another timeout) is replaced, not doubled', () => {
    const old = after(planConnect(PERSONS, 'claude-code', hookCommand('/old/home/bin/assistant-cards-hook', 'claude-code', 'linux')));
    const hooks = hooksOf(after(planConnect(old, 'claude-code', CLAUDE)));
    for (const event of EVENTS['claude-code']) {
      const ours = (hooks[event] ?? []).flatMap((g) => g.hooks).filter((h) => h.command.includes(HOOK_NAME));
      assert.deepEqual(ours.map((h) => h.command), [event === 'PermissionRequest' ? `${CLAUDE} --wait 590` : CLAUDE], event);
    }
    const edited = old.replace(`"timeout": ${PERMISSION_TIMEOUT_S['claude-code']}`, '"timeout": 30');
    const fixed = planConnect(edited.replaceAll('/old/home/bin/assistant-cards-hook', LAUNCHER), 'claude-code', CLAUDE);
    assert.ok(fixed.ok);
    assert.deepEqual(fixed.events, ['PermissionRequest'], 'only the event that differs is rewritten');
    assert.equal(hooksOf(fixed.after).PermissionRequest?.[0]?.hooks[0]?.timeout, PERMISSION_TIMEOUT_S['claude-code']);
  });

  it('Disconnect takes out our handler from a group the person shares with it, and nothing of theirs', () => {
    const shared = `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}, {"type": "command", "command": "${LAUNCHER} hook claude-code", "timeout": 10}]}]}}`;
    const out = planDisconnect(shared);
    assert.ok(out.ok);
    assert.deepEqual(JSON.parse(out.after), { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] } });
  });

  it('Disconnect drops what it emptied (groups, event lists, `hooks`), and keeps a list it did not empty', () => {
    const connected = after(planConnect('{\n  "model": "opus",\n  "hooks": {\n    "Stop": [],\n    "Other": []\n  }\n}\n', 'codex', CODEX));
    const out = planDisconnect(connected);
    assert.ok(out.ok);
    assert.deepEqual(JSON.parse(out.after), { model: 'opus', hooks: { Other: [] } }, 'Stop held only ours once connected: it goes; Other stays');
    const fresh = planDisconnect(after(planConnect('{\n  "model": "opus"\n}\n', 'codex', CODEX)));
    assert.ok(fresh.ok);
    assert.equal(fresh.after, '{\n  "model": "opus"\n}\n', 'the `hooks` Connect made goes with our entries');
  });

  it('a missing or empty file gets a whole, readable one; Disconnect of a file without ours changes nothing', () => {
    const made = after(planConnect(undefined, 'claude-code', CLAUDE));
    assert.equal(made, `${JSON.stringify(JSON.parse(made), null, 2)}\n`);
    assert.equal(after(planConnect('  \n', 'claude-code', CLAUDE)), made);
    const none = planDisconnect(PERSONS);
    assert.ok(none.ok);
    assert.equal(none.changed, false);
    assert.equal(none.after, PERSONS);
    const absent = planDisconnect(undefined);
    assert.ok(absent.ok && !absent.changed);
  });

  it('follows the file\'s tabs and CRLF line ends', () => {
    assert.deepEqual(formattingOf('{\r\n\t"a": 1\r\n}'), { insertSpaces: false, tabSize: 1, eol: '\r\n' });
    const text = '{\r\n\t"a": 1\r\n}\r\n';
    const out = after(planConnect(text, 'codex', CODEX));
    assert.ok(!/[^\r]\n/.test(out), 'no bare LF');
    assert.match(out, /\r\n\t"hooks": \{\r\n\t\t"SessionStart"/);
    assert.equal(after(planDisconnect(out)), text);
  });
});

describe('connect-settings: a file it cannot read safely is refused, never rewritten', () => {
  it('a syntax error: refused, with the line and what is wrong', () => {
    const bad = '{\n  "model": "opus",\n  "hooks": {,}\n}\n';
    for (const plan of [planConnect(bad, 'claude-code', CLAUDE), planDisconnect(bad)]) {
      assert.equal(plan.ok, false);
      assert.deepEqual(!plan.ok && plan.refusal, { kind: 'unparsable', detail: 'ValueExpected', line: 3 });
    }
  });

  it('a shape that is not settings: refused, naming what is off', () => {
    const cases: [string, string][] = [
      ['[1, 2]', 'the file is not a JSON object'],
      ['{"hooks": []}', '"hooks" is not an object'],
      ['{"hooks": {"Stop": {"command": "x"}}}', '"hooks.Stop" is not a list'],
    ];
    for (const [text, detail] of cases) {
      const plan = planConnect(text, 'codex', CODEX);
      assert.deepEqual(!plan.ok && plan.refusal, { kind: 'unexpected', detail }, text);
    }
  });

  it('comments and trailing commas (JSON with comments) are read, not refused', () => {
    const text = '{\n  // mine\n  "model": "opus",\n}\n';
    assert.equal(after(planDisconnect(after(planConnect(text, 'claude-code', CLAUDE)))), text);
  });
});

describe('connect-settings: any settings file (property)', () => {
  it('Connect then Disconnect gives back the same bytes, and Connect twice changes nothing, whatever the layout and content', async () => {
    const fc = await import('fast-check');
    const handler = fc.record({ type: fc.constant('command'), command: fc.string({ minLength: 1 }).filter((c) => !c.includes(HOOK_NAME)) }, { requiredKeys: ['type', 'command'] });
    const group = fc.record({ matcher: fc.constantFrom('*', 'Bash', 'Edit|Write'), hooks: fc.array(handler, { minLength: 1, maxLength: 2 }) }, { requiredKeys: ['hooks'] });
    const hooks = fc.dictionary(fc.constantFrom('Stop', 'SessionStart', 'PreToolUse', 'PermissionRequest', 'Custom'), fc.array(group, { minLength: 1, maxLength: 2 }), { minKeys: 1 });
    const settings = fc.record({
      other: fc.dictionary(fc.string({ minLength: 1 }).filter((k) => k !== 'hooks'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
      hooks: fc.option(hooks, { nil: undefined }),
      indent: fc.constantFrom(0, 2, 4, '\t'),
      crlf: fc.boolean(),
      cli: fc.constantFrom('claude-code' as const, 'codex' as const),
    });
    fc.assert(fc.property(settings, ({ other, hooks: h, indent, crlf, cli }) => {
      const value = h ? { ...other, hooks: h } : other;
      if (Object.keys(value).length === 0) return; // `{}` is written whole (its own test)
      let text = `${JSON.stringify(value, null, indent)}\n`;
      if (crlf) text = text.replace(/\n/g, '\r\n');
      const command = hookCommand(LAUNCHER, cli, 'linux');
      const connected = after(planConnect(text, cli, command));
      const again = planConnect(connected, cli, command);
      assert.ok(again.ok && !again.changed, 'connecting twice adds nothing');
      const parsed = JSON.parse(connected) as Record<string, unknown>;
      // Compared with what the file held (JSON: a generated -0 is written as 0).
      assert.deepEqual({ ...parsed, hooks: undefined }, { ...(JSON.parse(text) as Record<string, unknown>), hooks: undefined }, 'everything else as it was');
      assert.equal(after(planDisconnect(connected)), text);
    }), { numRuns: 300 });
  });

  it('a value JSON cannot keep apart (-0) is compared as the file holds it (CI seed 1849567336)', () => {
    const text = `${JSON.stringify({ ' ': -0 }, null, 0)}\n`;
    const connected = after(planConnect(text, 'claude-code', hookCommand(LAUNCHER, 'claude-code', 'linux')));
    assert.deepEqual({ ...(JSON.parse(connected) as Record<string, unknown>), hooks: undefined }, { ...(JSON.parse(text) as Record<string, unknown>), hooks: undefined });
    assert.equal(after(planDisconnect(connected)), text);
  });
});
