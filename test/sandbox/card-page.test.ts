// The card's `url` is served: the service's own page for the card, where a high-stakes card is
// answered (never through /v1). Card text is escaped.
import assert from 'node:assert/strict';
import { readCardLink } from '../../src/shared/card-link';
import { makeWorld, type World } from '../kit';

/** Loads the card page as a person's browser does: its session cookie and this render's form token. */
async function openPage(url: string, cookie?: string): Promise<{ cookie: string; token: string }> {
  const res = await fetch(url, cookie ? { headers: { cookie } } : {});
  assert.equal(res.status, 200);
  const set = res.headers.get('set-cookie');
  const html = await res.text();
  const token = /name="form_token" value="([^"]+)"/.exec(html)?.[1];
  assert.ok(token, 'the form carries a token');
  return { cookie: cookie ?? (set ?? '').split(';')[0]!, token };
}

const postForm = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });

describe('sandbox card page', () => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  it('shows the card at its url with its text escaped; 404 for an unknown card', async () => {
    const c = await w.card({ kind: 'approval', highStakes: true, title: '<script>alert(1)</script> Pay $4,800?', summary: '<img src=x onerror=alert(2)>' });
    const card = (await w.me.request('GET', `/v1/cards/${c.id}`)).json.card;
    const res = await fetch(card.url);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/html/);
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    const html = await res.text();
    assert.ok(!html.includes('<script>alert(1)'));
    assert.ok(!html.includes('<img src=x'));
    assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt; Pay $4,800?'));
    assert.match(html, /High stakes/);
    assert.equal((await fetch(`${w.url}/cards/req_nothing`)).status, 404);
  });

  it('offers the card\'s link into the editor, which the editor reads back as this card', async () => {
    const c = await w.card({ kind: 'text', title: 'Which port?' });
    const html = await (await fetch(`${w.url}/cards/${c.id}`)).text();
    const href = /<a id="open-in-editor" href="([^"]+)"/.exec(html)?.[1];
    assert.equal(href, `vscode://assistant-cards.assistant-cards/card?id=${c.id}`);
    const link = new URL(href!);
    assert.deepEqual(readCardLink(link.pathname, link.search.slice(1)), { kind: 'card', id: c.id });
  });

  it('a high-stakes card is answered on the service page: recorded as from the service, heard after the hold', async () => {
    const c = await w.card({ kind: 'approval', highStakes: true, title: 'Publish?' });
    const refused = await w.me.request('POST', `/v1/cards/${c.id}/answer`, { body: { version: 1, approved: true }, headers: { 'idempotency-key': 'k1' } });
    assert.equal(refused.json.code, 'high_stakes');
    const at = await openPage(`${w.url}/cards/${c.id}`);
    const again = await openPage(`${w.url}/cards/${c.id}`, at.cookie); // a second tab, answered later
    const res = await postForm(`${w.url}/cards/${c.id}`, `version=1&approved=true&form_token=${at.token}`, { cookie: at.cookie });
    assert.equal(res.status, 200);
    assert.match(await res.text(), /Answered/);
    const card = (await w.me.request('GET', `/v1/cards/${c.id}`)).json.card;
    assert.equal(card.status, 'answered');
    assert.equal(card.answeredFrom.app, 'The service (web page)');
    await w.advance(5000);
    const heard = (await w.ctl('GET', `/_sandbox/cards/${c.id}/heard`)).json.heard;
    assert.deepEqual(heard[0].body, { version: 1, approved: true });
    const stale = await postForm(`${w.url}/cards/${c.id}`, `version=1&approved=false&form_token=${again.token}`, { cookie: at.cookie });
    assert.equal(stale.status, 409);
  });

  it('says the hold the answer got: DESIGN\'s 5 s, or the shorter one a test asked for', async () => {
    const answerOnPage = async (title: string) => {
      const c = await w.card({ kind: 'approval', highStakes: true, title });
      const at = await openPage(`${w.url}/cards/${c.id}`);
      const res = await postForm(`${w.url}/cards/${c.id}`, `version=1&approved=true&form_token=${at.token}`, { cookie: at.cookie });
      assert.equal(res.status, 200);
      return res.text();
    };
    assert.match(await answerOnPage('Publish?'), /The assistant hears it in 5 s\./);
    assert.equal((await w.ctl('POST', '/_sandbox/hold', { ms: 800 })).status, 200);
    assert.match(await answerOnPage('Deploy?'), /The assistant hears it in 0\.8 s\./);
  });

  it('the page starts a person session: an HttpOnly, SameSite=Strict cookie for the whole service', async () => {
    const c = await w.card({ kind: 'approval', title: 'Ship?' });
    const res = await fetch(`${w.url}/cards/${c.id}`);
    const cookie = res.headers.get('set-cookie') ?? '';
    assert.match(cookie, /^ac_person=[A-Za-z0-9_-]{32}; HttpOnly; SameSite=Strict; Path=\/$/);
    const again = await fetch(`${w.url}/cards/${c.id}`, { headers: { cookie: cookie.split(';')[0]! } });
    assert.equal(again.headers.get('set-cookie'), null, 'a live session is kept');
  });

  it('a cross-site form post answers nothing, high stakes included: no session, no token, a foreign token or a spent one', async () => {
    const c = await w.card({ kind: 'approval', highStakes: true, title: 'Buy reserved instances?' });
    const url = `${w.url}/cards/${c.id}`;
    // Another site's form: no cookie (SameSite=Strict), no token.
    assert.equal((await postForm(url, 'version=1&approved=true')).status, 403);
    // A token without the session it was issued to.
    const mine = await openPage(url);
    assert.equal((await postForm(url, `version=1&approved=true&form_token=${mine.token}`)).status, 403);
    // A session without a token, and another session's token.
    const other = await openPage(url);
    assert.equal((await postForm(url, 'version=1&approved=true', { cookie: mine.cookie })).status, 403);
    assert.equal((await postForm(url, `version=1&approved=true&form_token=${other.token}`, { cookie: mine.cookie })).status, 403);
    // A token of another card.
    const d = await w.card({ kind: 'approval', title: 'Other' });
    const forD = await openPage(`${w.url}/cards/${d.id}`, mine.cookie);
    assert.equal((await postForm(url, `version=1&approved=true&form_token=${forD.token}`, { cookie: mine.cookie })).status, 403);
    assert.equal((await w.ctl('GET', `/_sandbox/cards/${c.id}`)).json.status, 'pending', 'nothing was answered');
    // Foreign Origin on the form post, even with session and token.
    const fresh = await openPage(url, mine.cookie);
    const foreign = await postForm(url, `version=1&approved=true&form_token=${fresh.token}`, { cookie: mine.cookie, origin: 'https://evil.example' });
    assert.equal(foreign.status, 403);
    assert.equal((await w.ctl('GET', `/_sandbox/cards/${c.id}`)).json.status, 'pending');
  });
});
