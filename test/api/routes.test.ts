// Every route and every problem code through the real client against the sandbox.
import { strict as assert } from 'node:assert';
import { randomUUID } from 'node:crypto';
import { ApiProblemError, OAuthRefusalError } from '../../src/api/errors';
import { PROBLEM_CODES } from '../../src/api/schemas';
import { MemorySecretStore } from '../../src/auth/secret-store';
import { PROBLEM_STATUS } from '../../src/sandbox/problems';
import { makeWorld, settle, signInCore } from '../kit';
import type { World } from '../kit';

const w8 = (key = randomUUID()) => ({ idempotencyKey: key, stillWaiting: () => true });

describe('api: every route and problem against the sandbox', () => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld({ me: false });
  });
  afterEach(async () => {
    await w.close();
  });

  /** A client core signed in, and a raw client of its own on the same sign-in (as another window). */
  async function signedApi(o: { scopes?: string[] } = {}) {
    const store = new MemorySecretStore();
    const core = w.core({ store });
    await signInCore(w, core, o);
    const link = w.link(store);
    assert.ok(await (await link.tokenSet()).load(), 'the sign-in is in the store');
    return { core, api: link.api };
  }

  it('the 13 routes answer with their typed shapes', async () => {
    const { api } = await signedApi();
    const me = await api.me();
    assert.equal(me.grant.reach, 'machine');
    const c = await w.card({ title: 'routes' });
    const list = await api.listCards({ status: 'pending' });
    assert.ok(list.cards.some((x) => x.id === c.id));
    const card = await api.getCard(c.id);
    assert.equal(card.title, 'routes');
    const ans = await api.answer(c.id, { version: card.version, choiceIds: ['a'] }, w8());
    assert.equal(ans.status, 'answered');
    assert.ok(ans.undoUntil);
    const undone = await api.undo(c.id, w8());
    assert.equal(undone.status, 'pending');
    const later = await api.later(c.id, { until: '1h' }, w8());
    assert.equal(later.status, 'snoozed');
    assert.ok(later.until);
    const back = await api.back(c.id, w8());
    assert.equal(back.status, 'pending');
    const del = await api.delegate(c.id, { to: { assistantId: w.helperId }, mode: 'loop' }, w8());
    assert.equal(del.status, 'delegated');
    assert.ok(del.hears);
    const took = await api.takeBack(c.id, w8());
    assert.equal(took.status, 'pending');
    const msg = await api.message(c.id, { body: 'a word' }, w8());
    assert.match(msg.messageId, /^msg_/);
    assert.equal(msg.turn, 'agent');
    const ch = await api.changes({});
    assert.equal(typeof ch.cursor, 'string');
    const assistants = await api.assistants();
    assert.ok(assistants.some((a) => a.id === w.assistantId));
    await api.presence(true);
    await api.presence(false);
  });

  it('the card page link (#35): the client asks for it on "Open in Browser", and the core falls back to the plain url (read-only there)', async () => {
    const { core, api } = await signedApi();
    const c = await w.card({ kind: 'approval', highStakes: true, title: 'Wire $4,800?' });
    const card = await api.getCard(c.id);
    const link = await api.pageLink(c.id);
    assert.match(link.url, new RegExp(`^${w.url}/cards/${c.id}\\?ticket=`));
    assert.ok(Date.parse(link.expiresAt) > w.sb.clock.now());
    // The core's answer for the press: a fresh link, whose page shows the form once.
    const opened = await core.pageUrl(card);
    assert.ok(opened && opened !== link.url && opened.startsWith(`${card.url}?ticket=`), opened);
    assert.match(await (await fetch(opened)).text(), /name="form_token"/);
    assert.doesNotMatch(await (await fetch(opened)).text(), /name="form_token"/, 'spent');
    // The service gives no link: the plain url, where the page is read-only.
    await w.ctl('POST', '/_sandbox/faults', { path: `/v1/cards/${c.id}/page-link`, status: 503, times: 1 });
    assert.equal(await core.pageUrl(card), card.url);
    await assert.rejects(api.pageLink('req_nope'), (e: unknown) => e instanceof ApiProblemError && e.code === 'not_found');
    assert.equal(await core.pageUrl({ id: 'req_nope', url: `${w.url}/cards/req_nope` }), `${w.url}/cards/req_nope`);
    // A card whose url is not the service's (an update card's notice link) opens that link, asking nothing.
    const asked = (await w.ctl('GET', '/_sandbox/received')).json.received.length;
    assert.equal(await core.pageUrl({ id: c.id, url: 'https://dash.example/alerts/1' }), 'https://dash.example/alerts/1');
    assert.equal((await w.ctl('GET', '/_sandbox/received')).json.received.length, asked);
  });

  it('real refusals become typed problems: not_found, version_conflict, hold_over, invalid, idempotency_mismatch, high_stakes', async () => {
    const { api } = await signedApi();
    const code = (p: Promise<unknown>, expected: string) => assert.rejects(p, (e: unknown) => {
      assert.ok(e instanceof ApiProblemError, String(e));
      assert.equal(e.code, expected, e.message);
      assert.match(e.requestId, /^rid_/);
      return true;
    });
    await code(api.getCard('req_nope'), 'not_found');
    const c = await w.card();
    await code(api.answer(c.id, { version: c.version + 5, choiceIds: ['a'] }, w8()), 'version_conflict');
    await api.answer(c.id, { version: c.version, choiceIds: ['a'] }, w8());
    await w.advance(6000);
    await code(api.undo(c.id, w8()), 'hold_over');
    const d = await w.card();
    await code(api.later(d.id, { until: 'someday' }, w8()), 'invalid');
    const key = randomUUID();
    await api.message(d.id, { body: 'one' }, w8(key));
    await code(api.message(d.id, { body: 'two' }, w8(key)), 'idempotency_mismatch');
    const hs = await w.card({ highStakes: true });
    await assert.rejects(api.answer(hs.id, { version: hs.version, approved: true }, w8()), (e: unknown) => e instanceof ApiProblemError && e.code === 'high_stakes' && !!e.url);
  });

  for (const code of PROBLEM_CODES) {
    it(`sandbox fault ${code} -> ApiProblemError ${code}`, async () => {
      const { api } = await signedApi();
      await w.ctl('POST', '/_sandbox/faults', { path: '/v1/me', code, status: PROBLEM_STATUS[code], times: 6, ...(code === 'rate_limited' ? { retryAfter: 1 } : {}) });
      const p = api.me();
      let settled = false;
      p.then(() => (settled = true), () => (settled = true));
      await w.advanceUntil(() => settled, 1000, 120_000);
      await assert.rejects(p, (e: unknown) => e instanceof ApiProblemError && e.code === code && e.status === PROBLEM_STATUS[code]);
      await w.ctl('DELETE', '/_sandbox/faults');
    });
  }

  it('a scope the person did not allow is insufficient_scope, an OAuth refusal', async () => {
    const { api } = await signedApi({ scopes: ['cards:read'] });
    const c = await w.card();
    await assert.rejects(api.answer(c.id, { version: c.version }, w8()), (e: unknown) => e instanceof OAuthRefusalError && e.error === 'insufficient_scope' && e.status === 403);
    await settle(w.transports);
  });
});
