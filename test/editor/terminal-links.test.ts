// Card ids printed in a terminal become links (src/editor/terminal-links.ts): what the provider
// finds in a line of terminal text. (Following a link in a real terminal, Ctrl+click, is a host
// test in panel-paths.test.ts.)
import * as assert from 'node:assert/strict';
import { cardIdsIn } from '../../src/editor/assistants/terminal-links';

describe('card ids in terminal text', () => {
  it('finds each req_ id standing on its own, with where it starts', () => {
    const line = 'builder asks (choice): Which store?  [req_0t2dKHXIB-zaN27-] and req_abcd1234';
    assert.deepEqual(cardIdsIn(line), [
      { index: line.indexOf('req_0t2d'), id: 'req_0t2dKHXIB-zaN27-' },
      { index: line.indexOf('req_abcd'), id: 'req_abcd1234' },
    ]);
  });

  it('leaves ids inside longer words, and too-short ones, alone', () => {
    assert.deepEqual(cardIdsIn('xreq_abcd1234 req_ab my_req_abcdefg'), []);
  });
});
