// A CLI's card row names the CLI once (#54): its title ("Claude Code asks to run: …") already leads
// with the asker's name, so the row is "<agent>: <title>", not "Claude Code · shop: Claude Code
// asks to run: …". Only a title that begins with the name counts; the tooltip (and the panel and
// the notification, which show the title whole) keep every word.
import * as assert from 'node:assert/strict';
import type { CardListEntry } from '../../src/api/schemas';
import { beginsWithName, cardWords, lookOf } from '../../src/shared/card-view';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const cli = (title: string, over: Partial<Record<string, unknown>> = {}) => ({
  id: 'req_1', version: 1, status: 'pending', turn: 'you', kind: 'approval', title,
  assistant: { id: 'ast_1', name: 'Claude Code', app: 'claude-code' }, agent: { id: 'agt_1', name: 'shop' }, ...over,
}) as CardListEntry;

describe('a CLI card\'s row names the CLI once (#54)', () => {
  it('a title that begins with the asker\'s name: the agent, then the title whole', () => {
    const l = lookOf(cli('Claude Code asks to run: rm -rf build && npm run build'), NOW);
    assert.equal(l.label, 'shop: Claude Code asks to run: rm -rf build && npm run build');
    assert.equal(l.label.split('Claude Code').length - 1, 1, 'the CLI\'s name once');
    assert.match(l.tooltip, /^Claude Code asks to run: rm -rf build && npm run build\nAsked by Claude Code · shop \(claude-code\)/, 'the tooltip keeps the title and who asks');
  });

  it('in every language the bridge writes, and the pseudo-locale\'s marks before it', () => {
    assert.equal(cardWords(cli('Claude Code möchte ausführen: npm test')).label, 'shop: Claude Code möchte ausführen: npm test');
    assert.equal(cardWords(cli('Claude Code が実行を求めています: npm test')).label, 'shop: Claude Code が実行を求めています: npm test');
    assert.equal(cardWords(cli('⟦Claude Code åšķš ţő ŕűñ: npm test⟧')).label, 'shop: ⟦Claude Code åšķš ţő ŕűñ: npm test⟧');
  });

  it('without an agent: the title alone, which says who asks', () => {
    assert.equal(cardWords(cli('Codex asks to run: make', { assistant: { id: 'a', name: 'Codex', app: 'codex' }, agent: undefined })).label, 'Codex asks to run: make');
  });

  it('a title that does not begin with the name keeps the asker first', () => {
    // Another assistant's card that quotes a CLI's words: who really asks still leads.
    assert.equal(cardWords(cli('Claude Code asks to run: x', { assistant: { id: 'a', name: 'x', app: 'other' } })).label, 'x · shop: Claude Code asks to run: x');
    assert.equal(cardWords(cli('Pick a database')).label, 'Claude Code · shop: Pick a database');
    // A longer word that starts with the name is not the name.
    assert.equal(cardWords(cli('Running tests?', { assistant: { id: 'a', name: 'Ru', app: 'other' } })).label, 'Ru · shop: Running tests?');
    // A look-alike of the name (Cyrillic "а") is not the name: both stay, the odd letter marked.
    assert.match(cardWords(cli('Cl\u0430ude Code asks to run: ls')).label, /^Claude Code · shop: /);
  });

  it('a notice keeps its own row (no asker in its label)', () => {
    assert.equal(cardWords(cli('Claude Code finished', { kind: 'update' })).label, 'Claude Code finished');
  });

  it('a name cut from the row\'s title, or empty, does not count', () => {
    assert.equal(beginsWithName('Claude Co…', 'Claude Code'), false);
    assert.equal(beginsWithName('anything', ''), false);
    assert.equal(beginsWithName('"Claude Code" asks', 'Claude Code'), true);
    assert.equal(beginsWithName('Claude Codes asks', 'Claude Code'), false);
  });
});
