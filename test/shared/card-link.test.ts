// The card link into the editor: built by the service's page, read by the editor's URI handler.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { cardLink, EXTENSION_ID, readCardLink } from '../../src/shared/card-link';

describe('card link (vscode://assistant-cards.assistant-cards/card?id=…)', () => {
  it('names this extension as package.json does (VS Code routes links by publisher.name)', () => {
    const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { publisher: string; name: string; activationEvents: string[] };
    assert.equal(EXTENSION_ID, `${pkg.publisher}.${pkg.name}`);
    assert.ok(pkg.activationEvents.includes('onUri'), 'a link activates the extension');
  });

  it('round-trips a card id', () => {
    const link = new URL(cardLink('req_abc-123'));
    assert.equal(link.protocol, 'vscode:');
    assert.equal(link.host, EXTENSION_ID);
    assert.deepEqual(readCardLink(link.pathname, link.search.slice(1)), { kind: 'card', id: 'req_abc-123' });
    assert.equal(cardLink('req_x', 'vscode-insiders'), 'vscode-insiders://assistant-cards.assistant-cards/card?id=req_x');
  });

  it('refuses what is not one card id of the spec\'s shape', () => {
    for (const q of ['', 'id=', 'id=abc', 'id=req_', 'id=req_a%20b', 'id=req_a/../b', 'id=req_%3Cscript%3E', 'id=prj_abc', 'id=req_a&id=req_b',
      `id=req_${'a'.repeat(101)}`, 'card=req_abc']) {
      assert.deepEqual(readCardLink('/card', q), { kind: 'bad-id' }, q);
    }
  });

  it('another path is not a card link', () => {
    assert.deepEqual(readCardLink('/answer', 'id=req_abc'), { kind: 'unknown' });
    assert.deepEqual(readCardLink('', 'id=req_abc'), { kind: 'unknown' });
    assert.deepEqual(readCardLink('/card/', 'id=req_abc'), { kind: 'card', id: 'req_abc' });
  });
});
