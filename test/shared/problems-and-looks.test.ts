import * as assert from 'node:assert/strict';
import type { CardListEntry } from '../../src/api/schemas';
import { PROBLEM_CODES } from '../../src/api/schemas';
import { contextValueOf, lookOf } from '../../src/shared/card-view';
import { wholePasses as passes } from '../../src/sync/card-filter';
import { problemMessage, problemText } from '../../src/shared/problem-messages';
import { OAuthRefusalError } from '../../src/api/errors';

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

  it('carry the service\'s detail and an invalid problem\'s fields, as plain bounded text', () => {
    const p = problemMessage('invalid', {
      serviceDetail: 'The body was refused: [open](command:workbench.action.terminal.new)\nsecond line',
      fields: [{ field: 'note.text', reason: 'at most 2000 characters' }, { field: 'until', reason: '$(alert) must lie ahead' }],
    });
    assert.equal(p.detail, 'The body was refused: [open] (command:workbench.action.terminal.new) second line');
    assert.deepEqual(p.fields, [{ field: 'note.text', reason: 'at most 2000 characters' }, { field: 'until', reason: '$ (alert) must lie ahead' }]);
    const text = problemText(p);
    assert.match(text, /^The service could not take what was sent\. The service says: The body was refused/);
    assert.match(text, /Refused: note\.text: at most 2000 characters; until: \$ \(alert\) must lie ahead\./);
    assert.ok(text.endsWith(p.next));
    const many = problemMessage('invalid', { fields: Array.from({ length: 30 }, (_, i) => ({ field: `f${i}`, reason: 'x'.repeat(500) })) });
    assert.equal(many.fields?.length, 10);
    assert.ok(many.fields!.every((f) => f.reason.length <= 200));
    assert.equal(problemMessage('invalid').detail, undefined);
  });

  it('name the missing scope on insufficient_scope, from WWW-Authenticate or the description', () => {
    const p = problemMessage('insufficient_scope', { scope: 'cards:later' });
    assert.match(p.message, /cards:later/);
    assert.match(p.next, /cards:later/);
    assert.equal(p.scope, 'cards:later');
    assert.equal(new OAuthRefusalError(403, 'insufficient_scope', undefined, 'u', 'cards:delegate').missingScope, 'cards:delegate');
    assert.equal(new OAuthRefusalError(403, 'insufficient_scope', 'this needs the scope cards:reply', 'u').missingScope, 'cards:reply');
    assert.match(new OAuthRefusalError(403, 'insufficient_scope', undefined, 'u', 'cards:delegate').message, /missing scope cards:delegate/);
    assert.equal(new OAuthRefusalError(401, 'invalid_token', 'expired', 'u').missingScope, undefined);
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
