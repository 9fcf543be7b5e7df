// The panel's message validation and link check: plain Node (no vscode), also run in the host.
import * as assert from 'node:assert/strict';
import { isFromWebview, parseFromWebview, safeExternalUrl } from '../../src/shared/protocol';

describe('panel protocol', () => {
  it('accepts every well-formed message from the webview', () => {
    const ok: unknown[] = [
      { type: 'ready' },
      { type: 'answer', requestId: 'r1', version: 3, body: { choiceIds: ['a'], note: { text: 'n' }, via: 'text' } },
      { type: 'answer', requestId: 'r1', version: 0, body: {} },
      { type: 'answer', requestId: 'r1', version: 2, body: { approved: false } },
      { type: 'answer', requestId: 'r1', version: 2, body: { theyDecide: true } },
      { type: 'answer', requestId: 'r1', version: 2, body: { answers: { q1: 'x' }, failedStep: 1 } },
      { type: 'undo', requestId: 'r1', version: 4 },
      { type: 'message', requestId: 'r1', version: 1, body: 'go on' },
      { type: 'later', requestId: 'r1', version: 1, until: 'tonight' },
      { type: 'delegate', requestId: 'r1', version: 1, assistantId: 'con_a', mode: 'loop', note: 'pls' },
      { type: 'takeBack', requestId: 'r1', version: 1 },
      { type: 'openLink', url: 'https://example.com' },
      { type: 'draft', draft: { note: 'x', choiceIds: ['a'] } },
      { type: 'close' },
      { type: 'loadAssistants', requestId: 'r2' },
      { type: 'openNext', cardId: 'req_next-1' },
    ];
    for (const m of ok) assert.equal(isFromWebview(m), true, JSON.stringify(m));
  });

  it('drops malformed or forged messages', () => {
    const bad: unknown[] = [
      null, 'ready', { type: 'nope' }, { type: 'answer', body: {} }, { type: 'answer', requestId: 'r1', version: -1, body: {} },
      { type: 'answer', requestId: 'r1', version: 1.5, body: {} }, { type: 'answer', requestId: 'r1', version: 1, body: { version: 9 } },
      { type: 'answer', requestId: 'r1', version: 1, body: { theyDecide: false } }, { type: 'answer', requestId: 'r1', version: 1, body: { via: 'voice' } },
      { type: 'answer', requestId: 'r1', version: 1, body: { text: 'x'.repeat(10_001) } },
      { type: 'message', requestId: 'r1', version: 1, body: '   ' }, { type: 'delegate', requestId: 'r1', version: 1, assistantId: 'con_a', mode: 'whatever' },
      { type: 'draft', draft: { evil: 'x' } }, { type: 'later', requestId: 'r1', version: 1, until: 5 },
      // A press or a request for a reply without its id: the reply could not name it.
      { type: 'undo', version: 4 }, { type: 'loadAssistants' }, { type: 'undo', requestId: '', version: 4 },
      // Next names a card by the spec's id shape only.
      { type: 'openNext', cardId: '../settings' }, { type: 'openNext', cardId: 'req_' }, { type: 'openNext', cardId: `req_${'a'.repeat(101)}` }, { type: 'openNext' },
    ];
    for (const m of bad) assert.equal(isFromWebview(m), false, JSON.stringify(m));
  });

  it('reads a message as its schema says: unknown keys are left out', () => {
    assert.deepEqual(parseFromWebview({ type: 'undo', requestId: 'r1', version: 4, extra: 'x' }), { type: 'undo', requestId: 'r1', version: 4 });
  });

  it('lets only http(s) links out', () => {
    assert.equal(safeExternalUrl('https://example.com/a?b=1'), 'https://example.com/a?b=1');
    assert.equal(safeExternalUrl('http://127.0.0.1:3000/x'), 'http://127.0.0.1:3000/x');
    for (const u of ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:text/html,<script>1</script>', 'file:///etc/passwd',
      'vscode://settings', 'command:workbench.action.quit', 'not a url', 'https://user:pw@example.com/']) {
      assert.equal(safeExternalUrl(u), undefined, u);
    }
  });
});
