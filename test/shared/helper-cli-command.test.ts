// "A helper and a CLI's command" (#52): handed over `freely`, another assistant's answer became
// `allow` for a shell command. Now a card that gates what a CLI runs is handed over in `loop` only
// (the panel and the palette offer nothing else and say why), and the bridge takes no helper's
// answer as the CLI's decision (the CLI's own prompt decides).
import { strict as assert } from 'node:assert';
import type { Card } from '../../src/api/schemas';
import { decisionOf } from '../../src/bridge/permission-card';
import { ADAPTERS } from '../../src/bridge/clis';
import { KNOWN_APPS } from '../../src/api/constants';
import { NOT_CLI_APPS, isCliApp, loopOnly } from '../../src/shared/loop-only';
import { panelCardOf } from '../../src/shared/panel-card';
import { delegate } from '../../media/webview/actions';
import { asked, card as panelCard, cardMsg, NOW } from '../media/webview/fixtures';
import { initialState, reduce, type PanelEvent, type PanelState } from '../../media/webview/state';
import type { PanelCard } from '../../src/shared/panel-card';

const wire = (app: string, kind = 'approval'): Card => ({
  id: 'req_1', version: 2, kind, title: 'Claude Code asks to run: make deploy', status: 'pending', turn: 'you',
  assistant: { id: 'as_1', name: 'Claude Code', app },
} as unknown as Card);

describe('a helper and a CLI\'s command (#52)', () => {
  it('helper: the bridge takes no helper\'s answer as the CLI\'s decision; the person\'s answer still is', () => {
    const at = '2026-01-01T00:00:00Z';
    assert.equal(decisionOf([{ at, type: 'helper-answer', body: { approved: true } }]), undefined, 'the CLI\'s own prompt decides');
    assert.equal(decisionOf([{ at, type: 'helper-answer', body: { approved: false } }]), undefined);
    assert.deepEqual(decisionOf([{ at, type: 'helper-answer', body: { approved: true } }, { at, type: 'answer', body: { approved: true } }]), { behavior: 'allow' });
  });

  it('helper: an approval a CLI asked is handed over in loop only; other cards and other apps as before', () => {
    assert.equal(loopOnly(wire('claude-code')), true);
    assert.equal(loopOnly(wire('codex')), true);
    assert.equal(loopOnly(wire('claude-code', 'choice')), false);
    assert.equal(loopOnly(wire('chatgpt')), false);
    assert.equal(panelCardOf(wire('codex')).loopOnly, true);
    assert.equal(panelCardOf(wire('chatgpt')).loopOnly, undefined);
  });

  it('helper: every CLI the bridge connects asks as an app of the spec\'s enum whose approvals are loop only, Copilot CLI\'s `other` too (#54)', () => {
    for (const a of ADAPTERS) {
      const app = a.serviceApp ?? a.id;
      assert.ok((KNOWN_APPS as readonly string[]).includes(app), `${a.name} asks as app "${app}", which the service refuses (not in the spec's app enum): give the adapter a serviceApp`);
      assert.ok(isCliApp(app), `${a.name} asks as app "${app}", which loop-only.ts counts as no CLI`);
      assert.equal(loopOnly(wire(app)), true, a.name);
    }
  });

  it('helper: a new CLI needs no edit of loop-only.ts: every app of the enum is loop only but the chat apps and the webhook; an app the enum does not know yet is too (#53)', () => {
    assert.deepEqual(KNOWN_APPS.filter((app) => !isCliApp(app)), ['chatgpt', 'claude', 'webhook']);
    for (const app of NOT_CLI_APPS) assert.ok((KNOWN_APPS as readonly string[]).includes(app), `${app} is in the spec's enum`);
    for (const app of ['cursor', 'pi', 'grok', 'muse', 'dots', 'other', 'some-new-cli']) assert.equal(loopOnly(wire(app)), true, app);
    assert.equal(loopOnly(wire('claude')), false, 'a chat app\'s approval: as before');
    assert.equal(loopOnly({ kind: 'approval' }), false, 'no app named: as before');
  });

  it('helper: the panel\'s hand-over sends loop for such a card even when freely was the draft', () => {
    const helpers = [{ id: 'as_2', name: 'Helper', appName: 'x', agents: [] }];
    const shown = (c: PanelCard): PanelState => [cardMsg(c), { type: 'pickMode', mode: 'freely' } as PanelEvent, ...asked('loadAssistants', { type: 'assistants', requestId: 'q', assistants: helpers } as PanelEvent)]
      .reduce((s, x) => reduce(s, x, NOW), initialState('req_1', undefined, 'UTC'));
    const mode = (c: PanelCard) => { const r = delegate(shown(c)); return r && 'post' in r ? (r.post as { mode?: string }).mode : undefined; };
    assert.equal(mode(panelCard({ kind: 'approval', loopOnly: true })), 'loop');
    assert.equal(mode(panelCard({ kind: 'approval' })), 'freely', 'another card: the mode picked');
  });
});
