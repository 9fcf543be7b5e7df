// #52 F10: Connect and Disconnect own only their own entries. The person's hook that merely names
// the launcher stays; a file with a key twice, or bytes that are not UTF-8, is refused and left as
// it is; Disconnect plans on the text it reads right before writing.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { hookCommand, isOurCommand, planConnect, planDisconnect, type Plan } from '../../src/bridge/connect-settings';
import { decodeSettings, readSettings, rewriteSettings } from '../../src/bridge/settings-file';

const LAUNCHER = '/home/ada/.config/assistant-cards/bin/assistant-cards-hook';
const CLAUDE = hookCommand(LAUNCHER, 'claude-code', 'linux');
const TEE = 'tee -a /tmp/assistant-cards-hook.log';
const PERSONS_TEE = `{
  "hooks": {
    "Stop": [ { "hooks": [ { "type": "command", "command": "${TEE}" } ] } ]
  }
}
`;

const ok = (p: Plan): Extract<Plan, { ok: true }> => { assert.ok(p.ok, `refused: ${JSON.stringify(!p.ok && p.refusal)}`); return p; };
const commands = (text: string, event: string): string[] =>
  ((JSON.parse(text) as { hooks: Record<string, { hooks: { command: string }[] }[]> }).hooks[event] ?? []).flatMap((g) => g.hooks.map((h) => h.command));

describe('F10: Connect and Disconnect own only their own entries (#52)', () => {
  it('F10: our command is recognised exactly; one that only mentions the launcher\'s name is the person\'s', () => {
    for (const cli of ['claude-code', 'codex'] as const) {
      assert.ok(isOurCommand(hookCommand(LAUNCHER, cli, 'linux')), cli);
      assert.ok(isOurCommand(`${hookCommand(LAUNCHER, cli, 'linux')} --wait 590`), cli);
    }
    assert.ok(isOurCommand(hookCommand('/Users/Ada Lovelace/bin/assistant-cards-hook', 'codex', 'darwin')));
    assert.ok(isOurCommand(hookCommand("/home/o'hara/bin/assistant-cards-hook", 'codex', 'linux')));
    assert.ok(isOurCommand(hookCommand('C:\\Users\\Ada\\bin\\assistant-cards-hook.cmd', 'codex', 'win32')));
    for (const theirs of [TEE, 'assistant-cards-hook-wrapper hook codex', `${LAUNCHER} hook codex; rm -rf ~`, `${LAUNCHER} hook codex | tee log`,
      `echo ${LAUNCHER} hook codex`, `${LAUNCHER}.log hook codex`, `${LAUNCHER} ask approval x`]) {
      assert.equal(isOurCommand(theirs), false, theirs);
    }
  });

  it('F10: Connect keeps the person\'s `tee -a /tmp/assistant-cards-hook.log` hook, and Disconnect leaves it', () => {
    const connected = ok(planConnect(PERSONS_TEE, 'claude-code', CLAUDE)).after;
    assert.deepEqual(commands(connected, 'Stop'), [TEE, CLAUDE]);
    const back = ok(planDisconnect(connected));
    assert.equal(back.after, PERSONS_TEE);
    const alone = ok(planDisconnect(PERSONS_TEE));
    assert.equal(alone.changed, false);
    assert.equal(alone.after, PERSONS_TEE);
  });

  it('F10: a file with two "hooks" keys is refused by Connect and Disconnect, naming the key and its lines', () => {
    const twice = `{\n  "hooks": {},\n  "model": "opus",\n  "hooks": { "Stop": [] }\n}\n`;
    for (const plan of [planConnect(twice, 'claude-code', CLAUDE), planDisconnect(twice)]) {
      assert.equal(plan.ok, false);
      assert.ok(!plan.ok && plan.refusal.kind === 'duplicate');
      assert.match(!plan.ok ? plan.refusal.detail : '', /"hooks" appears twice \(lines 2 and 4\)/);
    }
    const inner = `{"hooks": {"Stop": [], "Stop": []}}`;
    const p = planConnect(inner, 'codex', CLAUDE);
    assert.ok(!p.ok && p.refusal.kind === 'duplicate' && p.refusal.detail.includes('"hooks.Stop"'));
  });

  it('F10: bytes that are not UTF-8 are refused, with where', () => {
    const bytes = Buffer.concat([Buffer.from('{"model": "caf'), Buffer.from([0xe9]), Buffer.from('"}\n')]);
    const d = decodeSettings(bytes);
    assert.ok(!d.ok && d.refusal.kind === 'encoding');
    assert.match(!d.ok ? d.refusal.detail : '', /near offset 1[45]/);
    const good = decodeSettings(Buffer.from('{"model": "café"}'));
    assert.ok(good.ok && good.text === '{"model": "café"}');
  });

  describe('F10: on disk', () => {
    let dir: string;
    beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-settings-')); });
    afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('F10: a Latin-1 file is left byte for byte as it was', async () => {
      const file = path.join(dir, 'settings.json');
      const bytes = Buffer.from('{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "/x/assistant-cards-hook hook claude-code"}]}]}, "n": "\xe9"}', 'latin1');
      fs.writeFileSync(file, bytes);
      const read = await readSettings(file);
      assert.ok(!read.ok && read.refusal.kind === 'encoding');
      const plan = await rewriteSettings(file, planDisconnect);
      assert.equal(plan.ok, false);
      assert.deepEqual(fs.readFileSync(file), bytes);
    });

    it('F10: Disconnect reads the file again before it writes: a hook the person added meanwhile stays', async () => {
      const file = path.join(dir, 'settings.json');
      fs.writeFileSync(file, ok(planConnect(PERSONS_TEE, 'claude-code', CLAUDE)).after);
      let changed = false;
      const plan = await rewriteSettings(file, planDisconnect, async () => {
        if (changed) return;
        changed = true;
        const now = fs.readFileSync(file, 'utf8');
        fs.writeFileSync(file, now.replace('"model"', '"model"').replace('{\n  "hooks"', '{\n  "model": "opus",\n  "hooks"'));
      });
      ok(plan);
      const after = fs.readFileSync(file, 'utf8');
      assert.deepEqual(JSON.parse(after), { model: 'opus', hooks: { Stop: [{ hooks: [{ type: 'command', command: TEE }] }] } });
    });

    it('F10: a missing file is not created by Disconnect', async () => {
      const file = path.join(dir, 'none', 'settings.json');
      const plan = await rewriteSettings(file, planDisconnect);
      assert.ok(plan.ok && !plan.changed);
      assert.equal(fs.existsSync(file), false);
    });
  });
});
