// What another extension can start through `activate()`'s API (#37): `open()` opens only a card
// this window holds. On main each well-formed unknown id opened a tab and spent the person's read
// allowance as their own read, unthrottled.
import '../../bench/with-vscode-stub'; // first: src/editor modules import `vscode`
import { strict as assert } from 'node:assert';
import { publicApi } from '../../src/editor/public-api';

describe('the public API opens only cards this window holds', () => {
  it('an unknown id opens nothing; a held one opens; a malformed one never reaches the source', async () => {
    const opened: string[] = [];
    const api = publicApi({
      waiting: () => 0, onDidChangeWaiting: () => ({ dispose() {} }),
      holds: (id) => id === 'req_held',
      open: (id) => { opened.push(id); return true; },
    });
    for (let i = 0; i < 100; i++) assert.equal(await api.open(`req_flood-${i}`), false);
    assert.equal(await api.open('not a card'), false);
    assert.equal(await api.open('req_held'), true);
    assert.deepEqual(opened, ['req_held']);
  });
});
