// The panel's "Always allow" (#54): an approval card's own option is a button that approves with
// that option named (and the note); only an option the card shows; a digit key never presses it;
// a helper's proposal naming it is shown but never accepted in one press (#52). Plain Node.
import * as assert from 'node:assert/strict';
import type { PanelCard } from '../../../src/shared/panel-card';
import * as act from '../../../media/webview/actions';
import { initialState, reduce, type PanelEvent, type PanelState } from '../../../media/webview/state';
import { readProposal } from '../../../src/shared/proposal';
import { buttonSet } from '../../../src/shared/notify-rules';
import type { Card } from '../../../src/api/schemas';
import { card, cardMsg, NOW } from './fixtures';

const LABEL = 'Always allow: Bash(npm run *) in /home/dev/shop/.claude/settings.local.json';
const approval = (over: Partial<PanelCard> = {}) => card({ kind: 'approval', title: 'Claude Code asks to run: npm run build', options: [{ id: 'always-allow-1', label: LABEL }], loopOnly: true, ...over });
const shown = (c: PanelCard, ...e: PanelEvent[]): PanelState => [cardMsg(c), ...e].reduce((s, x) => reduce(s, x, NOW), initialState('req_1', undefined, 'UTC'));
const posted = (r: act.PanelPress) => (r && 'post' in r ? r.post : undefined);

describe('the panel\'s "Always allow" (#54, plain Node)', () => {
  it('its button approves with the option named, the version on screen and the note', () => {
    assert.deepEqual(posted(act.approveWithOption(shown(approval()), 'always-allow-1')), { type: 'answer', version: 3, body: { approved: true, choiceIds: ['always-allow-1'] } });
    const noted = shown(approval(), { type: 'edit', field: 'note', value: 'fine for builds' });
    assert.deepEqual(posted(act.approveWithOption(noted, 'always-allow-1')), { type: 'answer', version: 3, body: { approved: true, choiceIds: ['always-allow-1'], note: { text: 'fine for builds' }, via: 'text' } });
  });

  it('only an option the card shows, only on an approval', () => {
    assert.equal(act.approveWithOption(shown(approval()), 'always-allow-2'), undefined);
    assert.equal(act.approveWithOption(shown(card()), 'a'), undefined, 'a choice card answers through its form');
  });

  it('a digit key never presses it (an approval answers by its buttons only)', () => {
    assert.equal(act.optionForKey(shown(approval()), '1'), undefined);
    assert.deepEqual(act.optionForKey(shown(card()), '1'), { id: 'a', label: 'A' }, 'a choice card\'s digits as before');
  });

  it('helper: a proposal naming Always allow is shown in the card\'s words, with no one-press accept; Approve alone still can be', () => {
    const withOption = readProposal({ ...approval(), proposal: { helper: { assistantId: 'as_2' }, approved: true, choiceIds: ['always-allow-1'] } });
    assert.ok(withOption?.lines.some((l) => l.includes(LABEL)), JSON.stringify(withOption));
    assert.equal(withOption?.accept, undefined, 'the person presses Always allow themselves');
    assert.deepEqual(readProposal({ ...approval(), proposal: { approved: true } })?.accept, { approved: true });
  });

  it('a notification keeps Approve and Decline (its buttons are cut short, so the rule could not show whole there): Always allow is in the panel', () => {
    const wire = { id: 'req_1', version: 3, status: 'pending', turn: 'you', kind: 'approval', title: 'Claude Code asks to run: npm run build', options: [{ id: 'always-allow-1', label: LABEL }] } as Card;
    assert.deepEqual(buttonSet(wire), { kind: 'answers', answers: [{ label: 'Approve', answer: { approved: true } }, { label: 'Decline', answer: { approved: false } }] });
  });
});
