// Hostile and malformed input through the service side: cards made on the control surface
// (POST /_sandbox/cards) and notices posted to an incoming webhook (POST /in/<token>) carrying
// markup, script, javascript: and data: links, Unicode direction overrides, a 1 MB title and
// 10,000 options. The sandbox stores them as text (notices shortened per incoming-notices.md,
// links only http(s)); the client core reads them unchanged and keeps working: a plain card
// arrives and an answer to the huge card is heard once. (Rendering in the panel: test/editor/
// ui-cards.test.ts "a hostile card renders as text" and test/editor/hostile-panel.test.ts.)
import { strict as assert } from 'node:assert';
import { GROUPS } from '../../src/sync/contract';
import { makeWorld, signInCore } from '../kit';
import type { World } from '../kit';
import { pressOutsideThePath } from '../../src/sync/session';

const MIN = 60_000;
const RLO = '\u202E';
const HOSTILE = [
  `<script>globalThis.pwned = 1</script>`,
  `<img src=x onerror="globalThis.pwned = 2">`,
  `<a href="javascript:alert(1)">click</a>`,
  `<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data link</a>`,
  `invoice${RLO}fdp.exe \u2066isolate\u2069 \u200Fmark`,
  `{{constructor.constructor('return 1')()}} \${7*7} %s %n`,
];

describe('hostile input: cards and notices through the sandbox, read by the client core', () => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld({ me: false });
  });
  afterEach(async () => {
    await w.close();
  });

  async function signedIn() {
    const core = w.core();
    core.feed.setFocused(true);
    await signInCore(w, core);
    return core;
  }

  it('markup, links and direction overrides in every text field are kept as text, byte for byte', async () => {
    const core = await signedIn();
    const ids: string[] = [];
    for (const text of HOSTILE) {
      const c = await w.card({
        kind: 'choice', title: text, summary: `${text}\n${text}`,
        options: [{ id: 'a', label: text }, { id: 'b', label: 'javascript:alert(1)' }],
      });
      ids.push(c.id);
    }
    await w.advanceUntil(() => ids.every((id) => core.cards.get(id) !== undefined), 1000, 5 * MIN);
    for (const [i, id] of ids.entries()) {
      const whole = await core.cards.whole(id);
      assert.equal(whole.title, HOSTILE[i]);
      assert.equal(whole.summary, `${HOSTILE[i]}\n${HOSTILE[i]}`);
      assert.equal(whole.options?.[0]?.label, HOSTILE[i]);
      assert.equal(core.cards.get(id)?.title, HOSTILE[i], 'the model holds the same text');
    }
    assert.equal((globalThis as { pwned?: unknown }).pwned, undefined, 'nothing was evaluated');
  });

  it('a 1 MB title and 10,000 options: stored whole, read whole, and the model keeps working (answer heard once)', async () => {
    const core = await signedIn();
    const title = `<script>x</script>${'T'.repeat(1_000_000 - 18)}`;
    const big = await w.card({ kind: 'text', title });
    const options = Array.from({ length: 10_000 }, (_, i) => ({ id: `o${i}`, label: `<b>${i}</b> ${RLO}option` }));
    const many = await w.card({ kind: 'choice', title: 'ten thousand options', options });
    await w.advanceUntil(() => core.cards.get(big.id) !== undefined && core.cards.get(many.id) !== undefined, 1000, 5 * MIN);
    const bigWhole = await core.cards.whole(big.id);
    assert.equal(bigWhole.title.length, 1_000_000);
    assert.equal(bigWhole.title, title);
    const manyWhole = await core.cards.whole(many.id);
    assert.equal(manyWhole.options?.length, 10_000);
    assert.deepEqual(manyWhole.options?.[9_999], { id: 'o9999', label: `<b>9999</b> ${RLO}option` });
    // The model still works: a plain card arrives, and the last option of the huge card is answered once.
    const plain = await w.card({ title: 'plain after the huge ones' });
    await w.advanceUntil(() => core.cards.get(plain.id) !== undefined, 1000, 2 * MIN);
    const p = pressOutsideThePath(core, core.gestures.fromUiEvent('click:answer'), { id: manyWhole.id, version: manyWhole.version }, { type: 'answer', answer: { choiceIds: ['o9999'] } });
    let done = false;
    void p.send().then(() => (done = true));
    await w.advanceUntil(() => done, 500, MIN);
    await w.advance(6000);
    const heard = (await w.ctl('GET', `/_sandbox/cards/${many.id}/heard`)).json.heard as { body: { choiceIds: string[] } }[];
    assert.equal(heard.length, 1);
    assert.deepEqual(heard[0]!.body.choiceIds, ['o9999']);
    assert.equal(core.state.kind, 'online');
  });

  it('a card over the 1 MB body limit is refused with a problem naming the body; nothing is made', async () => {
    const before = (await w.ctl('GET', '/_sandbox/changes')).json;
    const r = await w.ctl('POST', '/_sandbox/cards', { agentId: w.agentId, kind: 'text', title: 'X'.repeat(1_100_000) });
    assert.equal(r.status, 413);
    assert.equal(r.json.code, 'invalid');
    assert.equal(r.json.errors?.[0]?.field, 'body');
    const after = (await w.ctl('GET', '/_sandbox/changes')).json;
    assert.deepEqual(after, before, 'no change recorded');
  });

  describe('notices (POST /in/<token>)', () => {
    async function webhook() {
      const hook = await w.ctl('POST', '/_sandbox/webhooks', { name: '<b>deploys</b>', area: { id: 'prj_web', name: 'Web <i>site</i>' } });
      assert.equal(hook.status, 200);
      return hook.json.url as string;
    }
    const post = async (url: string, body: unknown, type = 'application/json') => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': type }, body: typeof body === 'string' ? body : JSON.stringify(body) });
      const text = await res.text();
      let json: Record<string, unknown> | undefined;
      try { json = JSON.parse(text) as Record<string, unknown>; } catch { json = undefined; }
      return { status: res.status, json, text };
    };

    it('hostile text is shortened to its limits (title one line of 140, summary 400, from 40) and read as text by the client', async () => {
      const core = await signedIn();
      const url = await webhook();
      const made: { id: string; sent: string }[] = [];
      for (const text of HOSTILE) {
        const long = `${text}\n${'<script>'.repeat(40)}`;
        const r = await post(url, { title: long, summary: long.repeat(20), from: `${text}${'F'.repeat(60)}`, severity: 'critical', dedupeKey: text });
        assert.equal(r.status, 201, r.text);
        made.push({ id: String(r.json?.cardId), sent: text });
      }
      await w.advanceUntil(() => made.every((m) => core.cards.get(m.id) !== undefined), 1000, 5 * MIN);
      for (const m of made) {
        const card = await core.cards.whole(m.id);
        assert.equal(card.kind, 'update');
        assert.ok([...card.title].length <= 140, 'title within 140 characters');
        assert.ok(!/[\r\n]/.test(card.title), 'title is one line');
        assert.ok(card.title.startsWith(m.sent.replace(/\s*[\r\n]+\s*/g, ' ').slice(0, 60)), 'shortened, not rewritten');
        assert.ok([...(card.summary ?? '')].length <= 400, 'summary within 400');
        assert.ok([...(card.from ?? '')].length <= 40, 'from within 40');
      }
    });

    it('javascript: and data: links are refused (422 naming url); the edge-platform payload drops them; nothing else is lost', async () => {
      const core = await signedIn();
      const url = await webhook();
      for (const link of ['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'JaVaScRiPt:alert(1)', 'vbscript:msgbox(1)']) {
        const r = await post(url, { title: 'a link', url: link });
        assert.equal(r.status, 422, `${link}: ${r.text}`);
        assert.match(r.text, /url/);
      }
      const edge = await post(url, {
        name: 'Workers alert', text: '<script>boom</script> first line\nrest <img onerror=x>', alert_type: 'workers_alert',
        alert_correlation_id: 'corr-1', data: { script_name: 'api<script>', url: 'javascript:alert(1)', occurrences: 3 },
      });
      assert.equal(edge.status, 201, edge.text);
      const ok = await post(url, { title: 'a safe link', url: 'https://example.com/x?<script>' });
      assert.equal(ok.status, 201);
      await w.advanceUntil(() => core.cards.get(String(edge.json?.cardId)) !== undefined && core.cards.get(String(ok.json?.cardId)) !== undefined, 1000, 5 * MIN);
      const e = await core.cards.whole(String(edge.json?.cardId)) as Record<string, unknown>;
      assert.equal(e.title, '<script>boom</script> first line');
      for (const v of Object.values(e)) if (typeof v === 'string') assert.ok(!/^\s*(javascript|data|vbscript):/i.test(v), `no script link kept: ${v}`);
    });

    it('malformed bodies get their codes (not_json, too_large, invalid) and make no card (the webhook delivers none; the client lists none); a JSON body sent as text/plain is read as JSON', async () => {
      const core = await signedIn();
      const hook = await w.ctl('POST', '/_sandbox/webhooks', { name: 'deploys', area: { id: 'prj_web', name: 'Web site' } });
      const url = hook.json.url as string;
      const counts = async () => (await w.ctl('GET', `/_sandbox/webhooks/${hook.json.id}`)).json.counts as { delivered: number; refused: number };
      const every = () => core.cards.size(...GROUPS);
      const before = every();
      let bad = 0;
      const cut = await post(url, '{"title": ');
      assert.equal(cut.status, 400);
      assert.match(cut.text, /not_json/);
      bad++;
      const huge = await post(url, { title: 'big', summary: 'S'.repeat(70 * 1024) });
      assert.equal(huge.status, 413);
      assert.match(huge.text, /too_large/);
      bad++;
      for (const body of [{ title: 42 }, { title: '' }, { title: 'x', severity: '<script>' }, { title: 'x', kind: 'question' }, { title: 'x', callbackUrl: 'https://e.com' }, [], 'just a string']) {
        const r = await post(url, body);
        assert.ok([400, 422].includes(r.status), `${JSON.stringify(body)} -> ${r.status} ${r.text}`);
        bad++;
      }
      const notJson = await post(url, '<script>alert(1)</script>', 'text/html');
      assert.equal(notJson.status, 400, `text/html junk -> ${notJson.status}`);
      assert.match(notJson.text, /not_json/);
      bad++;
      const refused = await counts();
      assert.equal(refused.refused, bad, 'every malformed body refused');
      assert.equal(refused.delivered, 0, 'none delivered');
      // The address reads any body itself: a JSON body sent as text/plain (a misconfigured sender) is a notice.
      const asText = await post(url, JSON.stringify({ title: 'as text' }), 'text/plain');
      assert.equal(asText.status, 201, asText.text);
      assert.equal((await counts()).delivered, 1);
      // Once that card shows, any made before it would have shown too (the feed is in order): it is the only one.
      await w.advanceUntil(() => core.cards.get(String(asText.json?.cardId)) !== undefined, 1000, 5 * MIN);
      assert.equal(every(), before + 1, 'the client lists only the text/plain notice');
      assert.equal(core.state.kind, 'online');
    });
  });
});
