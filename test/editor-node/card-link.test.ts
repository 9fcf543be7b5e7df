// A card link (`vscode://assistant-cards.assistant-cards/card?id=req_…`) can be fired by any web
// page or local program: the panel it opens takes no keyboard (#37). On main it opened with focus,
// and after the keys' quiet moment a "1" and Enter typed for the editor answered a choice.
import '../../bench/with-vscode-stub'; // first: src/editor modules import `vscode`
import { strict as assert } from 'node:assert';
import { CardUriHandler } from '../../src/editor/panel/card-uri-handler';

const silent = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, show() {}, dispose() {} };

describe('card links open their panel without the keyboard', () => {
  it('a well-formed link opens the card with preserveFocus, and acts on nothing', async () => {
    const opened: { id: string; opts: unknown }[] = [];
    const links = new CardUriHandler({
      log: silent as never, signedIn: () => true, signIn: async () => undefined,
      openCard: (id: string, opts?: unknown) => { opened.push({ id, opts }); },
    });
    const outcome = await links.follow({ path: '/card', query: 'id=req_abc-1' } as never);
    assert.equal(outcome, 'opened');
    assert.deepEqual(opened, [{ id: 'req_abc-1', opts: { preserveFocus: true } }]);
  });
});
