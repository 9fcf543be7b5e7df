// What each press in the card panel posts, in plain Node: always the version on screen, and
// nothing while presses are off.
import * as assert from 'node:assert/strict';
import type { PanelCard } from '../../../src/shared/panel-card';
import { isActionType, isFromWebview, type ActionType } from '../../../src/shared/protocol';
import { ACTIONS, type ActionType as TableActionType } from '../../../src/sync/actions-table';

// The panel's action messages and the core's action table name the same actions (a type error otherwise).
const sameActions: [[ActionType] extends [TableActionType] ? true : false, [TableActionType] extends [ActionType] ? true : false] = [true, true];
import * as act from '../../../media/webview/actions';
import { initialState, reduce, type PanelEvent, type PanelState } from '../../../media/webview/state';
import { asked, card, cardMsg, NOW } from './fixtures';

const shown = (c: PanelCard, ...e: PanelEvent[]): PanelState => [
  cardMsg(c, { timeZone: 'Europe/Berlin' }), ...e,
].reduce((s, x) => reduce(s, x, NOW), initialState('req_1', undefined, 'UTC'));
const posted = (r: act.PanelPress) => (r && 'post' in r ? r.post : undefined);

describe('card panel actions (webview, plain Node)', () => {
  it('the panel has one message for each row of the action table, and every press it makes is a valid message', () => {
    for (const type of Object.keys(ACTIONS)) assert.ok(isActionType(type), type);
    assert.ok(!isActionType('ready') && !isActionType('toString'), 'only the table\'s actions');
    assert.deepEqual(sameActions, [true, true]);
    const s = shown(card(), { type: 'pick', optionId: 'b', multi: false }, { type: 'edit', field: 'message', value: 'hi' });
    for (const r of [act.answerFromForm(s), act.later(s, '1h'), act.message(s), act.versionPress(s, 'back'), act.versionPress(s, 'takeBack')]) {
      const m = posted(r);
      assert.ok(m && isFromWebview({ ...m, requestId: 'r1' }), JSON.stringify(r));
      assert.ok(isActionType(m.type));
    }
  });

  it('Answer sends the picks, the note and the shown version', () => {
    const s = shown(card(), { type: 'pick', optionId: 'b', multi: false }, { type: 'edit', field: 'note', value: ' go ' });
    assert.deepEqual(posted(act.answerFromForm(s)), { type: 'answer', version: 3, body: { choiceIds: ['b'], note: { text: 'go' }, via: 'text' } });
  });

  it('nothing is sent before the form can answer, while busy, or when presses are off', () => {
    assert.equal(act.answerFromForm(shown(card())), undefined);
    const busy = shown(card(), { type: 'pick', optionId: 'a', multi: false }, ...asked('answer', { type: 'busy', requestId: 'q' }));
    assert.equal(act.answerFromForm(busy), undefined);
    assert.equal(act.undo(busy), undefined);
    const off = reduce(shown(card()), { type: 'card', card: card(), shownVersion: 3, timeZone: 'UTC', canAct: false, hostNowMs: NOW }, NOW);
    assert.equal(act.answer(off, { approved: true }), undefined);
    assert.equal(act.later(off, '1h'), undefined);
  });

  it('Got it is its own message, only on a notice', () => {
    assert.deepEqual(posted(act.gotIt(shown(card({ kind: 'update', options: undefined })))), { type: 'gotIt', version: 3 });
    assert.equal(act.gotIt(shown(card())), undefined);
    assert.deepEqual(posted(act.enter(shown(card({ kind: 'update', options: undefined })))), { type: 'gotIt', version: 3 });
  });

  it('Enter never answers an approval (its buttons do)', () => {
    assert.equal(act.enter(shown(card({ kind: 'approval', options: undefined }))), undefined);
  });

  it('Enter answers only an answer complete for its kind: not a questions card with no asks, not a failed step nobody picked', () => {
    assert.equal(act.enter(shown(card({ kind: 'questions', options: undefined, asks: [] }))), undefined, 'questions with no asks');
    const failure = card({ kind: 'failure', options: undefined, steps: [{ title: 'build' }, { title: 'test', failed: true }] } as Partial<PanelCard>);
    assert.equal(act.enter(shown(failure)), undefined, 'a failure card with nothing chosen');
    assert.deepEqual(posted(act.enter(shown(failure, { type: 'pickStep', index: 0 }))), { type: 'answer', version: 3, body: { failedStep: 0 } }, 'once a step is picked');
    assert.equal(act.enter(shown(card())), undefined, 'a choice with nothing picked');
    assert.equal(posted(act.enter(shown(card(), { type: 'pick', optionId: 'b', multi: false })))?.type, 'answer');
    // The Answer button, pressed on purpose, still answers what it offers.
    assert.equal(posted(act.answerFromForm(shown(failure)))?.type, 'answer');
  });

  it('Undo only during a hold, naming the answered version', () => {
    const s = shown(card());
    assert.equal(act.undo(s), undefined);
    const held = asked('answer', { type: 'done', requestId: 'q', message: 'Answered.', version: 4, undoUntil: new Date(NOW + 5_000).toISOString(), hostNowMs: NOW }).reduce((x, e) => reduce(x, e, NOW), s);
    assert.deepEqual(posted(act.undo(held)), { type: 'undo', version: 4 });
  });

  it('Later until then needs both fields, in the person\'s time zone', () => {
    const r = act.laterAt(shown(card()));
    assert.ok(r && 'refuse' in r && r.refuse.code === 'bad_input');
    const s = shown(card(), { type: 'edit', field: 'laterDate', value: '2026-12-01' }, { type: 'edit', field: 'laterTime', value: '09:30' });
    assert.deepEqual(posted(act.laterAt(s)), { type: 'later', version: 3, until: '2026-12-01T08:30:00.000Z' });
  });

  it('Send without words is refused in the panel, not sent', () => {
    const r = act.message(shown(card(), { type: 'edit', field: 'message', value: '   ' }));
    assert.ok(r && 'refuse' in r);
  });

  it('Hand over names the helper shown as picked (the first by default), the agent, mode and note', () => {
    const list = asked('loadAssistants', { type: 'assistants', requestId: 'q', assistants: [
      { id: 'as_1', name: 'Codex', appName: 'codex', agents: [{ id: 'ag_1', name: 'h', state: 'idle' }] },
      { id: 'as_2', name: 'Gemini', appName: 'gemini', agents: [] },
    ] });
    assert.deepEqual(posted(act.delegate(shown(card(), ...list))), { type: 'delegate', version: 3, assistantId: 'as_1', mode: 'freely' });
    const s = shown(card(), ...list, { type: 'pickAgent', agentId: 'ag_1' }, { type: 'pickMode', mode: 'loop' }, { type: 'edit', field: 'delegateNote', value: ' check ' });
    assert.deepEqual(posted(act.delegate(s)), { type: 'delegate', version: 3, assistantId: 'as_1', agentId: 'ag_1', mode: 'loop', note: 'check' });
    assert.equal(act.pickedAgent(reduce(s, { type: 'pickHelper', assistantId: 'as_2' }, NOW)), '');
    assert.equal(act.delegate(shown(card())), undefined, 'no list, no hand-over');
  });

  it('a digit picks its option only while the card asks', () => {
    assert.equal(act.optionForKey(shown(card()), '2')?.id, 'b');
    assert.equal(act.optionForKey(shown(card()), '3'), undefined);
    assert.equal(act.optionForKey(shown(card({ status: 'answered', turn: 'agent' })), '1'), undefined);
  });
});
