// The card panel's proposal, failed step and scope parts, in plain Node: one press accepts a loop
// helper's proposal with the version on screen; the failure card's step the person picked is
// sent (the card's mark until then); what the sign-in may not do posts nothing.
import * as assert from 'node:assert/strict';
import type { PanelCard } from '../../../src/shared/panel-card';
import { allowedBy } from '../../../src/shared/grant-scopes';
import * as act from '../../../media/webview/actions';
import { initialState, reduce, type PanelEvent, type PanelState } from '../../../media/webview/state';
import { asked, card as cardV3, cardMsg, NOW } from './fixtures';

const card = (over: Partial<PanelCard> = {}): PanelCard => cardV3({ version: 7, ...over });
const shown = (c: PanelCard, extra: Partial<Extract<PanelEvent, { type: 'card' }>> = {}, ...e: PanelEvent[]): PanelState => [
  cardMsg(c, extra), ...e,
].reduce((s, x) => reduce(s, x, NOW), initialState('req_1', undefined, 'UTC'));
const posted = (r: act.PanelPress) => (r && 'post' in r ? r.post : undefined);

describe('card panel: proposals, failed steps, scopes (webview, plain Node)', () => {
  it('Accept sends the proposal as the answer, naming the version on screen, without the draft note', () => {
    const s = shown(card({ proposal: { choiceIds: ['b'], helper: { assistantId: 'con_h' } } }), {}, { type: 'edit', field: 'note', value: 'mine' });
    assert.deepEqual(posted(act.acceptProposal(s)), { type: 'answer', version: 7, body: { choiceIds: ['b'] } });
    assert.equal(act.acceptProposal(shown(card({ proposal: { choiceIds: ['zz'] } }))), undefined, 'a proposal that does not fit is not sent');
    assert.equal(act.acceptProposal(shown(card())), undefined, 'no proposal');
    assert.equal(act.acceptProposal(shown(card({ proposal: { choiceIds: ['b'] } }), {}, ...asked('answer', { type: 'busy', requestId: 'q' }))), undefined);
  });

  it('a failure card sends the step the person picked, else the one the card marks', () => {
    const c = card({ kind: 'failure', options: undefined, steps: [{ title: 'a' }, { title: 'b', state: 'failed' }, { title: 'c' }] });
    assert.equal((posted(act.answerFromForm(shown(c))) as { body: { failedStep?: number } }).body.failedStep, 1);
    const picked = shown(c, {}, { type: 'pickStep', index: 0 });
    assert.equal((posted(act.answerFromForm(picked)) as { body: { failedStep?: number } }).body.failedStep, 0);
    const fewer = reduce(shown(c, {}, { type: 'pickStep', index: 2 }), { type: 'card', card: { ...c, version: 8, steps: [{ title: 'a', state: 'failed' }] }, shownVersion: 8, timeZone: 'UTC', canAct: true, hostNowMs: NOW }, NOW);
    assert.equal(fewer.failedStep, undefined, 'a step the new version no longer lists falls back to the mark');
  });

  it('what the sign-in was not allowed posts nothing', () => {
    const allowed = allowedBy(['cards:read', 'cards:later']);
    const s = shown(card(), { allowed, notAllowed: 'n' }, { type: 'pick', optionId: 'a', multi: false }, { type: 'edit', field: 'message', value: 'hi' });
    assert.equal(s.notAllowed, 'n');
    assert.equal(act.answerFromForm(s), undefined);
    assert.equal(act.message(s), undefined);
    assert.equal(act.versionPress(s, 'takeBack'), undefined);
    assert.ok(posted(act.later(s, '1h')), 'Later was allowed');
    const accept = shown(card({ proposal: { choiceIds: ['b'] } }), { allowed });
    assert.equal(act.acceptProposal(accept), undefined);
  });
});
