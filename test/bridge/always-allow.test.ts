// The card's "Always allow" (#54), through the hook bridge and the local service: Claude Code's
// PermissionRequest with a "don't ask again" suggestion is an approval card with one more option
// naming the rule and the settings file whole; the person's press of it prints the decision with
// `updatedPermissions`; Approve stays once; a helper never picks it; Codex (no such choice in its
// contract) gets none. The real CLI: test/bridge/real-always-allow.test.ts.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { RunningSandbox } from '../../src/sandbox';
import { runHook } from '../../src/bridge/hook';
import { alwaysLabel, alwaysOptionId, decisionOf, permissionCard } from '../../src/bridge/permission-card';
import { setHold, signIn, startSandbox, type SignedIn, type WireCard } from '../sandbox/helpers';
import { until } from '../kit/until';
import { GUTTER } from '../../src/api/constants';


const PROJECT = '/home/dev/shop';
const FILE = path.join(PROJECT, '.claude', 'settings.local.json');
const SUGGESTION = { type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'npm run *' }], behavior: 'allow', destination: 'localSettings' };
const ALWAYS = { rules: ['Bash(npm run *)'], file: FILE, grant: SUGGESTION };
const at = '2026-01-01T00:00:00Z';

describe('the card\'s "Always allow" (#54)', function () {
  this.timeout(30_000);

  it('the card: one more option, "Always allow: <rule> in <settings file>", whole; the summary says it rule by rule', () => {
    const c = permissionCard('claude-code', { tool_name: 'Bash', tool_input: { command: 'npm run build' }, cwd: PROJECT }, [ALWAYS]);
    assert.equal(c.kind, 'approval');
    assert.deepEqual(c.options, [{ id: 'always-allow-1', label: `Always allow: Bash(npm run *) in ${FILE}` }]);
    assert.ok(c.summary?.includes(`${GUTTER}Bash(npm run *)\nSettings file: ${FILE}`), c.summary);
    assert.equal(permissionCard('claude-code', { tool_name: 'Bash', tool_input: { command: 'npm run build' } }).options, undefined, 'none offered: no option');
    const hostile = { ...ALWAYS, rules: ['Bash(npm run \u202egnp.exe)', 'Read(//etc/**)'] };
    assert.equal(alwaysLabel(hostile), `Always allow: Bash(npm run \u202egnp.exe) and Read(//etc/**) in ${FILE}`, 'as it came: the panel shows the hidden character as a mark');
  });

  it('the person\'s answer: Always allow allows with that grant; Approve allows once; Decline denies; an option not offered is no grant', () => {
    const id = alwaysOptionId(1);
    assert.deepEqual(decisionOf([{ at, type: 'answer', body: { approved: true, choiceIds: [id] } }], [ALWAYS]), { behavior: 'allow', always: ALWAYS });
    assert.deepEqual(decisionOf([{ at, type: 'answer', body: { choiceIds: [id] } }], [ALWAYS]), { behavior: 'allow', always: ALWAYS });
    assert.deepEqual(decisionOf([{ at, type: 'answer', body: { approved: true } }], [ALWAYS]), { behavior: 'allow' });
    assert.equal(decisionOf([{ at, type: 'answer', body: { approved: false, choiceIds: [id] } }], [ALWAYS])?.behavior, 'deny');
    assert.deepEqual(decisionOf([{ at, type: 'answer', body: { approved: true, choiceIds: ['always-allow-2'] } }], [ALWAYS]), { behavior: 'allow' });
    assert.deepEqual(decisionOf([{ at, type: 'answer', body: { approved: true, choiceIds: [id] } }]), { behavior: 'allow' }, 'a card that offered none');
  });

  it('helper: a helper\'s answer naming Always allow is never the CLI\'s decision (#52)', () => {
    assert.equal(decisionOf([{ at, type: 'helper-answer', body: { approved: true, choiceIds: [alwaysOptionId(1)] } }], [ALWAYS]), undefined);
    assert.equal(decisionOf([{ at, type: 'helper-answer', body: { choiceIds: [alwaysOptionId(1)] } }], [ALWAYS]), undefined);
  });

  describe('through the hook and the local service', () => {
    let sb: RunningSandbox;
    let person: SignedIn;
    let keysDir: string;
    beforeEach(async () => {
      keysDir = fs.mkdtempSync(path.join(os.tmpdir(), 'always-keys-'));
      sb = await startSandbox({ port: 0 });
      person = await signIn(sb.url);
      await setHold(sb, 0);
    });
    afterEach(async () => { await sb.close(); fs.rmSync(keysDir, { recursive: true, force: true }); });

    const hook = (app: string, suggestions: unknown[]) => runHook({
      app, service: { url: sb.url, askKey: sb.askKey }, terminal: () => ({ pid: 4242 }), waitMs: 20_000, keysDir,
      env: { CLAUDE_PROJECT_DIR: PROJECT },
      input: JSON.stringify({
        session_id: `s-${app}`, cwd: PROJECT, hook_event_name: 'PermissionRequest', tool_name: 'Bash',
        tool_input: { command: 'npm run build', description: 'Build' }, permission_suggestions: suggestions,
      }),
    });
    const theCard = () => until('the card', async () => ((await person.request('GET', '/v1/cards?whole=3')).json.cards as WireCard[]).find((x) => x.kind === 'approval'), 10_000);
    const answer = async (c: WireCard, body: Record<string, unknown>) => {
      const r = await person.request('POST', `/v1/cards/${c.id}/answer`, { body: { version: c.version, ...body }, headers: { 'idempotency-key': `k-${c.id}` } });
      assert.equal(r.status, 200, r.text);
    };

    it('Claude Code: the person presses Always allow; the hook prints allow with updatedPermissions, the suggestion as shown', async () => {
      const printed = hook('claude-code', [SUGGESTION, { type: 'setMode', mode: 'acceptEdits', destination: 'session' }]);
      const c = await theCard();
      assert.deepEqual(c.options, [{ id: 'always-allow-1', label: `Always allow: Bash(npm run *) in ${FILE}` }], 'only the rule for a file');
      await answer(c, { approved: true, choiceIds: ['always-allow-1'] });
      assert.deepEqual(JSON.parse(await printed), { hookSpecificOutput: { hookEventName: 'PermissionRequest', decision: { behavior: 'allow', updatedPermissions: [SUGGESTION] } } });
    });

    it('Claude Code: Approve on the same card allows this call only', async () => {
      const printed = hook('claude-code', [SUGGESTION]);
      await answer(await theCard(), { approved: true });
      assert.deepEqual(JSON.parse(await printed).hookSpecificOutput.decision, { behavior: 'allow' });
    });

    it('Codex (no such choice in its hook contract): the card offers none, even if its event carried suggestions', async () => {
      const printed = hook('codex', [SUGGESTION]);
      const c = await theCard();
      assert.deepEqual(c.options ?? [], []);
      assert.doesNotMatch(c.summary ?? '', /Always allow/);
      await answer(c, { approved: true });
      assert.deepEqual(JSON.parse(await printed).hookSpecificOutput.decision, { behavior: 'allow' });
    });
  });
});
