import * as assert from 'node:assert/strict';
import type { Card, CardListEntry } from '../../src/api/schemas';
import { CardRowWords } from '../../src/shared/card-row-words';
import { cardWords, lookOf } from '../../src/shared/card-view';
import { spokenCard } from '../../src/shared/spoken';
import { oneLine } from '../../src/shared/format';
import { inert } from '../../src/shared/plain-text';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const card = (patch: Partial<Card> = {}): Card => ({
  id: 'req_1', version: 1, status: 'pending', turn: 'you', kind: 'choice', title: 'Which way?',
  summary: 'A summary', createdAt: '2026-11-22T11:58:00Z', changedAt: '2026-11-22T11:58:00Z',
  urgency: 'now', blocking: true, assistant: { id: 'ast_1', name: 'Claude', app: 'claude-code' }, agent: { id: 'agt_1', name: 'main' },
  ...patch,
} as Card);

describe('a card row\'s words, kept per card version', () => {
  it('are made once per version, and again for a new version, form or asker', () => {
    const words = new CardRowWords();
    const first = words.of(card());
    assert.equal(words.of(card({ status: 'answered' })), first, 'the same version: the same words');
    const retitled = words.of(card({ version: 2, title: 'Retitled' }));
    assert.notEqual(retitled, first);
    assert.match(retitled.look.label, /Retitled/);
    const light: CardListEntry = { id: 'req_1', version: 2, status: 'pending', turn: 'you', kind: 'choice', title: 'Retitled', whole: false };
    assert.notEqual(words.of(light), retitled, 'the lighter form of the same version has no summary');
    assert.notEqual(words.of({ ...light, assistant: { id: 'ast_2', name: 'Codex', app: 'codex' } } as CardListEntry), words.of(light));
    words.forget('req_1');
    assert.equal(words.size, 0);
  });

  it('read the same as the row made without them, at any minute', () => {
    for (const c of [card(), card({ kind: 'update', webhook: { name: 'CI' }, from: 'github', count: 3, lastAt: '2026-11-22T11:55:00Z' } as Partial<Card>), card({ status: 'done' }), card({ title: 'Evil\u202Etxt.exe  and [x](command:y)' })]) {
      const kept = new CardRowWords().of(c);
      for (const at of [NOW, NOW + 60 * 60_000]) {
        assert.deepEqual(lookOf(c, at, undefined, kept.look), lookOf(c, at));
        assert.equal(spokenCard(c, at, undefined, kept.spoken), spokenCard(c, at));
      }
    }
    assert.equal(cardWords(card()).label, 'Claude · main: Which way?');
  });
});

describe('plain text\'s quick way (printable ASCII words, one space apart)', () => {
  it('gives what the whole rule gives', () => {
    assert.equal(oneLine('Deploy to staging?'), 'Deploy to staging?');
    assert.equal(oneLine('two  spaces '), 'two spaces', 'spaces are still folded and trimmed');
    assert.equal(oneLine('x'.repeat(130)), `${'x'.repeat(119)}…`, 'a long line is still cut');
    assert.equal(inert('see [x](command:y) and $(alert)'), 'see [x] (command:y) and $ (alert)');
    assert.equal(inert('no pairs (here)'), 'no pairs (here)');
  });
});
