// #54 part 4: the "N more blocking cards wait; next: …" notification names who asks the next card,
// as every other card notification does (an audited run showed only the next card's title).
import { strict as assert } from 'node:assert';
import type { CardListEntry } from '../../src/api/schemas';
import { nextCard } from '../../src/shared/next-card';
import { stillWaitingText, withMoreWaiting } from '../../src/shared/notify-rules';

const entry = (id: string, title: string, over: Record<string, unknown> = {}): CardListEntry => ({
  id, version: 1, kind: 'approval', title, status: 'pending', turn: 'you', blocking: true, ...over,
} as unknown as CardListEntry);

describe('the next card\'s notification names who asks it (#54 part 4)', () => {
  it('#54: "next:" says the assistant and agent before the title; plain', () => {
    const next = nextCard([
      entry('a', 'Run the database migration on the dev database?', { assistant: { id: 'as1', name: 'Claude Code', app: 'claude-code' }, agent: { id: 'ag1', name: 'shop' } }),
    ], []);
    assert.equal(next?.who, 'Claude Code · shop');
    assert.equal(stillWaitingText(next!), 'Assistant Cards: 1 more blocking card waits; next: Claude Code · shop asks: Run the database migration on the dev database?');
    assert.equal(withMoreWaiting('Codex asks: Merge?', { ...next!, more: 1 }), 'Codex asks: Merge? · 2 more blocking cards wait; next: Claude Code · shop asks: Run the database migration on the dev database?');
    const hostile = nextCard([entry('b', 'Go', { assistant: { id: 'x', name: 'Evil [x](command:rm)', app: 'a' } })], []);
    assert.equal(hostile?.who, 'Evil [x] (command:rm)', 'the asker\'s name is made inert');
  });

  it('#54: a card whose asker the list does not say keeps the title alone', () => {
    const next = nextCard([entry('a', 'Deploy?')], []);
    assert.equal(next?.who, undefined);
    assert.equal(stillWaitingText(next!), 'Assistant Cards: 1 more blocking card waits; next: Deploy?');
  });
});
