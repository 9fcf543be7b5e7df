// assistantCards.focusTerminal can be called by any extension or command link with anything: only
// a well-formed card id (or a card-shaped object with one) names a card; nothing means "pick".
import * as assert from 'node:assert/strict';
import { focusTargetOf } from '../../src/shared/card-facts';

describe('focus terminal: what the command accepts', () => {
  it('a card id, or an object carrying one, names that card', () => {
    assert.deepEqual(focusTargetOf('req_abc-123'), { kind: 'card', id: 'req_abc-123' });
    assert.deepEqual(focusTargetOf({ id: 'req_abc', title: 'x', assistant: { id: 'con_1' } }), { kind: 'card', id: 'req_abc' });
  });

  it('nothing at all: the person picks', () => {
    assert.deepEqual(focusTargetOf(undefined), { kind: 'pick' });
    assert.deepEqual(focusTargetOf(null), { kind: 'pick' });
  });

  it('anything else is ignored: not looked up, not shown', () => {
    for (const arg of ['', 'rm -rf /', 'req_', 'req_../../v1/me', `req_${'a'.repeat(101)}`, 'req_x\u001b[2J', '[x](command:workbench.action.terminal.sendSequence)',
      42, true, ['req_abc'], { id: 'con_1' }, { id: 42 }, () => 'req_abc']) {
      assert.equal(focusTargetOf(arg).kind, 'ignored', JSON.stringify(String(arg)));
    }
    const said = focusTargetOf('secret words here');
    assert.ok(said.kind === 'ignored' && !said.what.includes('secret'), 'the log line does not repeat the text');
  });
});
