import * as assert from 'node:assert/strict';
import type { CardListEntry } from '../../../src/api/schemas';
import { PROBLEM_CODES } from '../../../src/api/schemas';
import { contextValueOf, lookOf } from '../../../src/editor/shared/card-view';
import { wholePasses as passes } from '../../../src/sync/card-filter';
import { problemMessage } from '../../../src/editor/shared/problem-messages';

const NOW = Date.parse('2026-11-22T12:00:00Z');

describe('problem messages', () => {
  it('give every problem code of the spec its own message and next step', () => {
    const fallback = problemMessage('no-such-code');
    for (const code of PROBLEM_CODES) {
      const p = problemMessage(code);
      assert.equal(p.code, code);
      assert.notEqual(p.message, fallback.message, `${code} has its own message`);
      assert.ok(p.next.length > 5, `${code} says what to do next`);
    }
  });

  it('say when to retry after rate limiting, and carry the high-stakes url', () => {
    assert.match(problemMessage('rate_limited', { retryAfterS: 7 }).next, /7 s/);
    assert.equal(problemMessage('high_stakes', { url: 'https://x.test/c' }).url, 'https://x.test/c');
  });
});

describe('card looks', () => {
  const base = { id: 'req_1', version: 1, status: 'pending', turn: 'you', kind: 'choice', title: 'Pick' } as CardListEntry;

  it('give menus the state tokens they match', () => {
    assert.equal(contextValueOf(base), 'card:pending');
    assert.equal(contextValueOf({ ...base, turn: 'agent' }), 'card:agent');
    assert.equal(contextValueOf({ ...base, kind: 'update', highStakes: true }), 'card:pending card:update card:highStakes');
    assert.equal(contextValueOf({ ...base, status: 'snoozed' }), 'card:snoozed');
    assert.equal(contextValueOf({ ...base, status: 'answered', undoUntil: '2026-11-22T12:00:03Z' } as CardListEntry, NOW), 'card:answered card:held');
    assert.equal(contextValueOf({ ...base, status: 'answered', undoUntil: '2026-11-22T11:00:03Z' } as CardListEntry, NOW), 'card:answered');
  });

  it('show assistant (first, in the label), urgency, blocking and high stakes', () => {
    const l = lookOf({ ...base, urgency: 'today', blocking: true, highStakes: true, assistant: { id: 'con_a', name: 'Claude', app: 'claude-code' }, agent: { id: 'agt_1', name: 'main' } } as CardListEntry, NOW);
    assert.equal(l.label, 'Claude · main: Pick');
    assert.equal(l.description, 'today · blocking · high stakes');
    assert.equal(l.icon, 'shield');
  });

  it('show how often and how long ago a notice was seen, with its severity', () => {
    const l = lookOf({ ...base, kind: 'update', count: 3, lastAt: '2026-11-22T11:55:00Z', severity: 'error', webhook: { name: 'Deploys' }, from: 'Cloudflare' } as CardListEntry, NOW);
    assert.match(l.description, /Deploys · Cloudflare · seen 3 times, 5 minutes ago/);
    assert.equal(l.icon, 'error');
    assert.equal(l.color, 'red');
  });

  it('keep hostile titles on one bounded line', () => {
    const l = lookOf({ ...base, title: `<script>alert(1)</script>\n${'x'.repeat(100_000)}` }, NOW);
    assert.ok(l.label.length <= 120);
    assert.ok(!l.label.includes('\n'));
  });

  it('filter by area, assistant and app', () => {
    const c = { ...base, area: { id: 'prj_a', name: 'A' }, assistant: { id: 'con_a', name: 'C', app: 'codex' } } as CardListEntry;
    assert.equal(passes(c, {}), true);
    assert.equal(passes(c, { areas: ['prj_a'] }), true);
    assert.equal(passes(c, { areas: ['prj_b'] }), false);
    assert.equal(passes(c, { apps: ['codex'], assistants: ['con_a'] }), true);
    assert.equal(passes(c, { apps: ['cursor'] }), false);
  });
});
