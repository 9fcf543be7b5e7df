// The real Claude Code and Codex (installed once by scripts/install-clis.mjs into the test cache)
// against the scripted model: the model asks to run a shell command, a PermissionRequest hook (a
// tiny Node script) sees it and allows or denies it. These are the hook contracts the bridge
// relies on (docs/cli-hooks.md), measured on the pinned versions every run.
import { strict as assert } from 'node:assert';
import fs from 'node:fs';
import path from 'node:path';
import { ALLOW, deny, loggingHook, makeBox, runClaude, runCodex, type Box, type HookSpec } from './cli-run';
import { startScriptedModel, type ScriptedModel } from './scripted-model';

interface Installed { bin: string; version: string }
interface InstallClis {
  ensureClaudeCode(o?: { quiet?: boolean }): Installed;
  ensureCodex(o?: { quiet?: boolean }): Installed;
}
const installer = () => import(path.join(__dirname, '..', '..', 'scripts', 'install-clis.mjs')) as Promise<InstallClis>;

const EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PostToolUse', 'Stop', 'SessionEnd'];
const TOOL_EVENTS = new Set(['PreToolUse', 'PermissionRequest', 'PostToolUse']);
const hooksFor = (command: string): HookSpec[] =>
  EVENTS.map((event) => ({ event, command, timeout: 30, ...(TOOL_EVENTS.has(event) ? { matcher: '*' } : {}) }));

function suite(name: string, opts: {
  install(i: InstallClis): Installed;
  run: typeof runClaude;
  kind: 'anthropic' | 'openai';
  escalate: boolean;
}) {
  describe(`bridge: the real ${name} with a PermissionRequest hook`, function () {
    // A first install downloads about 400 MB from the npm registry (10-20 s measured); later runs find it.
    this.timeout(120_000);
    let bin = '';
    let box: Box;
    let model: ScriptedModel | undefined;

    before(async function () {
      this.timeout(600_000);
      bin = opts.install(await installer()).bin;
    });
    beforeEach(() => { box = makeBox(`cli-probe-${name.replace(/\W/g, '')}-`); });
    afterEach(async () => {
      await model?.close();
      model = undefined;
      box.dispose();
    });

    /** The command the model asks to run: it writes a file outside the project (so it needs approval). */
    const marker = () => path.join(box.root, 'ran.txt');

    it('an allow from the hook runs the command; the hook saw PermissionRequest with the command', async () => {
      const command = `touch ${marker()}`;
      model = await startScriptedModel({ [opts.kind === 'anthropic' ? 'claude' : 'codex']: [{ bash: command, escalate: opts.escalate }, { text: 'All done.' }] });
      const hook = loggingHook(box.root, { PermissionRequest: ALLOW });
      const r = await opts.run({ bin, model, box, prompt: 'Touch the file.', hooks: hooksFor(hook.command), timeoutMs: 90_000 });
      assert.equal(r.timedOut, false, `${name} did not finish: ${r.stderr.slice(-2000)}`);
      assert.equal(r.code, 0, r.stderr.slice(-2000));
      const calls = hook.calls();
      const events = calls.map((c) => c.hook_event_name);
      assert.deepEqual(events, EVENTS, 'the hook events, in order');
      const pr = calls.find((c) => c.hook_event_name === 'PermissionRequest');
      assert.equal(pr.tool_name, 'Bash');
      assert.equal(pr.tool_input.command, command);
      assert.equal(typeof pr.session_id, 'string');
      assert.ok(fs.existsSync(marker()), 'the command ran');
      assert.ok(model.turns(opts.kind).length >= 2, 'the model was asked again with the tool result');
    });

    it('a deny with a message keeps the command from running, and the message reaches the model', async () => {
      const command = `touch ${marker()}`;
      model = await startScriptedModel({ [opts.kind === 'anthropic' ? 'claude' : 'codex']: [{ bash: command, escalate: opts.escalate }, { text: 'Understood.' }] });
      const message = 'Denied from the card: DENY-7f3a';
      const hook = loggingHook(box.root, { PermissionRequest: deny(message) });
      const r = await opts.run({ bin, model, box, prompt: 'Touch the file.', hooks: hooksFor(hook.command), timeoutMs: 90_000 });
      assert.equal(r.timedOut, false, `${name} did not finish: ${r.stderr.slice(-2000)}`);
      assert.equal(r.code, 0, r.stderr.slice(-2000));
      const events = hook.calls().map((c) => c.hook_event_name);
      assert.ok(events.includes('PermissionRequest'), `events: ${events.join(', ')}`);
      assert.ok(!events.includes('PostToolUse'), 'no PostToolUse: the tool did not run');
      assert.ok(!fs.existsSync(marker()), 'the command did not run');
      assert.match(model.seenText(opts.kind), /DENY-7f3a/, 'the deny message came back to the model as the tool result');
    });
  });
}

suite('Claude Code', { install: (i) => i.ensureClaudeCode({ quiet: true }), run: runClaude, kind: 'anthropic', escalate: false });
suite('Codex', { install: (i) => i.ensureCodex({ quiet: true }), run: runCodex, kind: 'openai', escalate: true });
