// The live model against the sandbox: the feed, the periodic read, offline and back, presence,
// scope, presses with their retries, and the problems a press can meet.
import { strict as assert } from 'node:assert';
import { HighStakesError, VersionConflictError } from '../../src/api/errors';
import { MemorySecretStore } from '../../src/auth/secret-store';
import { signInSlot } from '../../src/auth/sign-in-slot';
import { RequestBudget } from '../../src/sync/budget';
import { CountingTransport, until, makeWorld, settle, signInCore } from '../kit';
import { createTransport } from '../../src/api/http';
import type { World } from '../kit';
import { pressOutsideThePath } from '../../src/sync/session';

const MIN = 60_000;

describe('sync: live card model against the sandbox', () => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld({ me: false });
  });
  afterEach(async () => {
    await w.close();
  });

  async function signedIn(o: Parameters<World['core']>[0] = {}) {
    const core = w.core(o);
    core.feed.setFocused(true);
    await signInCore(w, core);
    return core;
  }

  it('the feed owner long-polls and a new card arrives through it, refetched by id', async () => {
    const core = await signedIn();
    await until(() => core.transport.longPolls === 1);
    const added: string[] = [];
    core.cards.added((c) => added.push(c.id));
    const counts: number[] = [];
    core.cards.countsChanged((c) => counts.push(c.waiting));
    const before = core.transport.log.length;
    const c = await w.card({ title: 'new one', blocking: true });
    await until(() => added.includes(c.id));
    const after = core.transport.log.slice(before).map((l) => `${l.method} ${l.path}`);
    assert.ok(after.includes('GET /v1/changes'));
    assert.ok(after.includes(`GET /v1/cards/${c.id}`), 'refetched by id');
    assert.ok(!after.includes('GET /v1/cards'), 'no full read for one change');
    assert.deepEqual(counts, [1]);
    assert.equal(core.cards.counts().blockingWaiting, 1);
    const poll = core.transport.log.find((l) => l.url.includes('wait=25'))!;
    assert.match(poll.url, /after=/, 'the cursor is kept');
  });

  it('a burst of changes: every card arrives, and long-polls stay inside the waits budget', async () => {
    // The limit classes counted from the requests the core reports sending.
    const sent = new RequestBudget(w.clock);
    const core = await signedIn({ onRequest: (r) => sent.record(r.method, r.path, r.waits, r.byPerson ?? false) });
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const c = await w.card({ title: `burst ${i}` });
      ids.push(c.id);
      await w.advanceUntil(() => core.cards.get(c.id) !== undefined, 1000, 30_000);
      assert.ok(sent.lastMinute('wait') <= 3, 'at most half of the 6 waits a minute');
    }
    assert.deepEqual(core.cards.list('pending').map((c) => c.id), ids);
  });

  it('changes move a card between groups and remove it when closed; one event per card', async () => {
    const core = await signedIn();
    const c = await w.card({ title: 'to answer' });
    await until(() => core.cards.get(c.id) !== undefined);
    const events: string[] = [];
    core.cards.changed((e) => events.push(`changed ${e.card.id} ${e.previous.status}->${e.card.status}`));
    core.cards.removed((e) => events.push(`removed ${e.id}`));
    const press = pressOutsideThePath(core, core.gestures.fromUiEvent('test'), { id: c.id, version: c.version }, { type: 'answer', answer: { choiceIds: ['a'] } });
    const r = await press.send();
    assert.equal(r.status, 'answered');
    // Right after the card's own change the owner reads quickly (feed-loop.ts), on the clock.
    await w.advanceUntil(() => core.cards.groupOf(c.id) === 'agent', 250, 5_000);
    await w.advance(6000); // the hold ends; the assistant hears it
    await w.ctl('POST', `/_sandbox/cards/${c.id}/pickup`);
    // The hold's end was a change (#53) that spent a wait: the feed reads the close at its pace.
    await w.advanceUntil(() => core.cards.get(c.id) === undefined, 1000, 60_000);
    assert.ok(events.includes(`removed ${c.id}`));
    assert.equal(core.cards.counts().waiting, 0);
  });

  it('reads everything again every 10 minutes (cards coming into reach make no change)', async () => {
    const core = await signedIn();
    const reads = () => core.transport.log.filter((l) => l.path === '/v1/cards' && l.url.includes('status=pending')).length;
    assert.equal(reads(), 1);
    assert.equal(core.periodicFullReads, 0, 'the first read is not a periodic one');
    await w.advance(9 * MIN);
    assert.equal(reads(), 1);
    await w.advance(1 * MIN + 1000);
    // The read begins after a proof is signed: on a busy machine that can outlast the settle.
    await until(() => reads() === 2);
    assert.equal(core.periodicFullReads, 1, 'counted, so the bench gives its reads apart from a prompt\'s');
    const statuses = core.transport.log.filter((l) => l.path === '/v1/cards').map((l) => new URL(l.url).searchParams.get('status'));
    assert.deepEqual(statuses.slice(0, 3), ['pending', 'snoozed', 'delegated'], 'done is read only when asked');
    await core.cards.loadDone();
    assert.ok(core.transport.log.some((l) => l.url.includes('status=done')));
  });

  it('pages through `next`', async () => {
    for (let i = 0; i < 105; i++) await w.card({ title: `card ${i}` });
    const core = await signedIn();
    assert.equal(core.cards.list('pending').length, 105);
    const pages = core.transport.log.filter((l) => l.path === '/v1/cards' && l.url.includes('status=pending'));
    assert.equal(pages.length, 2);
    assert.match(pages[1]!.url, /after=/);
    assert.deepEqual(core.cards.list('pending').slice(0, 2).map((c) => c.title), ['card 0', 'card 1'], 'stack order kept');
  });

  it('offline and back: the feed fails, the state says offline, then clears itself', async () => {
    const core = await signedIn();
    await until(() => core.transport.longPolls === 1);
    const states: string[] = [];
    core.onDidChangeState((s) => states.push(s.kind));
    await w.ctl('POST', '/_sandbox/faults', { path: '/v1/changes', status: 503, times: 3 });
    await w.ctl('POST', '/_sandbox/faults', { path: '/v1/changes', drop: true, times: 1 });
    await w.pollWaiting();
    await w.advance(26_000); // the current long-poll ends; the next ones fail
    await until(() => core.state.kind === 'offline');
    const c = await w.card({ title: 'while offline' });
    await w.advanceUntil(() => core.cards.get(c.id) !== undefined, 5000, 5 * MIN);
    assert.equal(core.state.kind, 'online');
    assert.deepEqual(states.slice(0, 2), ['offline', 'online']);
  });

  it('a refused feed cursor: the feed starts again from now after one full read; no change lost (one made before the new cursor comes by that read, one after it by the feed)', async () => {
    const core = await signedIn();
    await until(() => core.transport.longPolls === 1);
    const fullReads = () => core.transport.log.filter((l) => l.path === '/v1/cards' && l.url.includes('status=pending')).length;
    const polls = () => core.transport.log.filter((l) => l.path === '/v1/changes').length;
    const before = fullReads();
    // The next poll's answer (empty, its cursor) is held back; a card made meanwhile is after that
    // cursor, and the poll after it is refused for its cursor: only the full read can bring that card.
    // Held until let go, not for a time: a 1 s hold had ended before the test looked for it (CI, load 9).
    await w.ctl('POST', '/_sandbox/faults', { path: '/v1/changes', delayMs: 120_000, times: 1 });
    await w.ctl('POST', '/_sandbox/faults', { path: '/v1/changes', status: 400, code: 'invalid', times: 1 });
    const p0 = polls();
    await w.pollWaiting();
    w.sb.advance(26_000); // the service's side only: the held poll ends; the next is sent and held
    await until('the next long poll sent', () => polls() === p0 + 1 && core.transport.longPolls === 1, 10_000, 5);
    // Waiting in the sandbox, not only sent: moved before it arrives, the clock would end nothing (CI, load 9).
    await w.pollWaiting();
    w.sb.advance(26_000); // that one ends too, its answer held back by the fault
    await w.held();
    const gap = await w.card({ title: 'made before the new cursor' });
    assert.deepEqual((await w.ctl('POST', '/_sandbox/faults/release')).json, { released: 1 }, 'the held poll answered now');
    await until('the full read after the refusal answered', () => fullReads() > before, 10_000, 5);
    assert.ok(core.transport.log.some((l) => l.path === '/v1/changes' && l.status === 400), 'the cursor was refused');
    await w.advanceUntil(() => core.cards.get(gap.id) !== undefined, 1000, 60_000);
    const c = await w.card({ title: 'after the new cursor' });
    await w.advanceUntil(() => core.cards.get(c.id) !== undefined, 1000, 60_000);
    assert.equal(core.state.kind, 'online');
  });

  it('presence: here:true every 30 s while here, here:false once on leaving', async () => {
    const core = await signedIn();
    core.presence.setHere(true);
    await settle(w.transports);
    await w.advance(65_000);
    core.presence.setHere(false);
    await settle(w.transports);
    await w.advance(120_000);
    const pings = core.transport.log.filter((l) => l.path === '/v1/presence').map((l) => JSON.parse(l.body!).here);
    assert.deepEqual(pings, [true, true, true, false]);
    const seen = await w.ctl('GET', '/_sandbox/presence');
    assert.equal(seen.json.here, false);
  });

  it('presence is not pinged when the person did not allow presence:desk', async () => {
    const core = w.core();
    await signInCore(w, core, { scopes: ['cards:read', 'cards:answer'] });
    core.presence.setHere(true);
    await w.advance(65_000);
    assert.equal(core.transport.log.filter((l) => l.path === '/v1/presence').length, 0);
  });

  it('workspace scope: only cards of the given assistants; a change of scope reads again', async () => {
    const mine = await w.card({ title: 'mine' });
    const helperCard = await w.ctl('POST', '/_sandbox/cards', { agentId: w.helperAgentId, kind: 'text', title: 'theirs' });
    const core = w.core({ scope: { kind: 'workspace', assistantIds: [w.assistantId] } });
    core.feed.setFocused(true);
    await signInCore(w, core);
    assert.ok(core.cards.get(mine.id));
    assert.equal(core.cards.get(helperCard.json.id), undefined);
    const another = await w.ctl('POST', '/_sandbox/cards', { agentId: w.helperAgentId, kind: 'text', title: 'theirs too' });
    const mine2 = await w.card({ title: 'mine too' });
    // Right after the other card's change the owner reads quickly (feed-loop.ts), on the clock.
    await w.advanceUntil(() => core.cards.get(mine2.id) !== undefined, 250, 5_000);
    assert.equal(core.cards.get(another.json.id), undefined, 'out of scope, though the feed named it');
    core.cards.setScope({ kind: 'workspace', assistantIds: [w.assistantId, w.helperId] });
    await until(() => core.cards.get(another.json.id) !== undefined);
    core.cards.setScope({ kind: 'workspace', assistantIds: [] });
    await until(() => core.cards.list('pending').length === 0);
  });

  it('workspace scope (the default): a notice posted to the incoming address reaches every window, by full read and by the feed', async () => {
    const hook = (await w.ctl('POST', '/_sandbox/webhooks', { name: 'Deploys', area: { id: 'prj_ops', name: 'Ops' } })).json as { url: string };
    const post = (title: string, dedupeKey: string) => fetch(hook.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title, dedupeKey }) });
    assert.ok((await post('Deploy failed', 'd1')).ok);
    const core = w.core({ scope: { kind: 'workspace', assistantIds: [] } });
    core.feed.setFocused(true);
    await signInCore(w, core);
    await w.advanceUntil(() => core.cards.list('pending').some((c) => c.title === 'Deploy failed'), 1000, 60_000);
    assert.ok((await post('Site down', 'd2')).ok);
    // By the feed (this window may not own the long-poll: its reads come on the clock).
    await w.advanceUntil(() => core.cards.list('pending').some((c) => c.title === 'Site down'), 1000, 60_000);
  });

  it('an answer survives a dropped connection and a 503 with one key; the assistant hears it once', async () => {
    const core = await signedIn();
    const c = await w.card({ title: 'retry me' });
    await until(() => core.cards.get(c.id) !== undefined);
    await w.ctl('POST', '/_sandbox/faults', { path: `/v1/cards/${c.id}/answer`, drop: true, times: 1 });
    await w.ctl('POST', '/_sandbox/faults', { path: `/v1/cards/${c.id}/answer`, status: 503, times: 1 });
    const press = pressOutsideThePath(core, core.gestures.fromUiEvent('click'), { id: c.id, version: c.version }, { type: 'answer', answer: { choiceIds: ['b'] } });
    const sent = press.send();
    let result: unknown;
    void sent.then((r) => (result = r));
    await w.advanceUntil(() => result !== undefined, 500, 60_000);
    const tries = core.transport.log.filter((l) => l.path === `/v1/cards/${c.id}/answer`);
    assert.ok(tries.length >= 3, `tries: ${tries.map((t) => t.status).join(',')}`);
    assert.deepEqual([...new Set(tries.map((t) => t.headers['idempotency-key']))], [press.idempotencyKey]);
    await w.advance(6000);
    const heard = await w.ctl('GET', `/_sandbox/cards/${c.id}/heard`);
    assert.equal(heard.json.heard.length, 1);
    assert.deepEqual(heard.json.heard[0].body.choiceIds, ['b']);
  });

  it('a press the person left is not retried: one try, nothing heard', async () => {
    const core = await signedIn();
    const c = await w.card({ title: 'left' });
    await until(() => core.cards.get(c.id) !== undefined);
    await w.ctl('POST', '/_sandbox/faults', { path: `/v1/cards/${c.id}/answer`, status: 503, times: 3 });
    const press = pressOutsideThePath(core, core.gestures.fromUiEvent('click'), { id: c.id, version: c.version }, { type: 'answer', answer: { choiceIds: ['a'] } });
    const sent = press.send();
    sent.catch(() => undefined);
    await until(() => core.transport.log.some((l) => l.path === `/v1/cards/${c.id}/answer`));
    press.cancel(); // the person closed the card while the first try failed
    await w.advance(60_000);
    await assert.rejects(sent);
    assert.equal(core.transport.log.filter((l) => l.path === `/v1/cards/${c.id}/answer`).length, 1);
    await w.advance(10_000);
    const heard = await w.ctl('GET', `/_sandbox/cards/${c.id}/heard`);
    assert.deepEqual(heard.json.heard, []);
    assert.equal(press.state, 'cancelled');
  });

  it('version_conflict: a typed error with the fresh card, never resent', async () => {
    const core = await signedIn();
    const c = await w.card({ title: 'will change' });
    await until(() => core.cards.get(c.id) !== undefined);
    const seen = { id: c.id, version: c.version };
    // The card changes before the press (a message moves its version on).
    const m = pressOutsideThePath(core, core.gestures.fromUiEvent('click'), seen, { type: 'message', body: 'hold on' });
    await m.send();
    const before = core.transport.log.length;
    const p = pressOutsideThePath(core, core.gestures.fromUiEvent('click'), seen, { type: 'answer', answer: { choiceIds: ['a'] } });
    await assert.rejects(p.send(), (e: unknown) => e instanceof VersionConflictError && e.fresh !== undefined && e.fresh.version > c.version && e.problem.code === 'version_conflict');
    const answers = core.transport.log.slice(before).filter((l) => l.path.endsWith('/answer'));
    assert.equal(answers.length, 1);
  });

  it('a high-stakes card is refused in the client: no request, the card url is carried', async () => {
    const core = await signedIn();
    const c = await w.card({ title: 'pay', highStakes: true });
    await until(() => core.cards.get(c.id) !== undefined);
    const whole = await core.cards.whole(c.id);
    const before = core.transport.log.length;
    assert.throws(
      () => pressOutsideThePath(core, core.gestures.fromUiEvent('click'), { id: whole.id, version: whole.version, highStakes: whole.highStakes, url: whole.url }, { type: 'answer', answer: { approved: true } }),
      (e: unknown) => e instanceof HighStakesError && e.url === whole.url && !!whole.url,
    );
    assert.equal(core.transport.log.length, before);
  });

  it('ETag: reading a card again is a 304 and gives the same card', async () => {
    const core = await signedIn();
    const c = await w.card({ title: 'etag' });
    await until(() => core.cards.get(c.id) !== undefined);
    const a = await core.cards.read(c.id);
    const b = await core.cards.read(c.id);
    assert.deepEqual(b, a);
    const reads = core.transport.log.filter((l) => l.path === `/v1/cards/${c.id}`);
    assert.equal(reads.at(-1)!.status, 304);
    assert.ok(reads.at(-1)!.headers['if-none-match']);
  });

  it('whole(): the card the model holds whole, without a read; a read only for the lighter form; read() always asks', async () => {
    // Listed before sign-in: the start's list read gives the first three cards whole, the others light.
    const made: { id: string }[] = [];
    for (let i = 0; i < 5; i++) made.push(await w.card({ title: `listed ${i}` }));
    // Reads by id wait until a light row is picked (the model reads light rows whole on its own).
    let release!: () => void;
    const byIdGate = new Promise<void>((r) => { release = r; });
    const inner = createTransport();
    const core = await signedIn({ transport: new CountingTransport({
      send: async (req) => { if (req.method === 'GET' && /\/v1\/cards\/req_[^/]*$/.test(new URL(req.url).pathname)) await byIdGate; return inner.send(req); },
      close: () => { release(); return inner.close(); },
    }) });
    await until(() => made.every((x) => core.cards.get(x.id) !== undefined));
    const c = made.find((x) => core.cards.held(x.id) === undefined);
    assert.ok(c, 'a card the model holds in the lighter form');
    release();
    const reads = () => core.transport.log.filter((l) => l.method === 'GET' && l.path === `/v1/cards/${c.id}`).length;
    const n = reads();
    assert.equal(core.cards.held(c.id), undefined, 'listed: the model holds the lighter form');
    const a = await core.cards.whole(c.id);
    // Once: whole()'s read, or the model's own fill read it joined or followed.
    assert.equal(reads(), n + 1, 'the lighter form: read once');
    assert.equal(a.id, c.id);
    const m = reads();
    const held = core.cards.held(c.id);
    assert.ok(held, 'the model now holds the whole card');
    assert.equal(await core.cards.whole(c.id), held, 'the held card, as it is');
    assert.equal(reads(), m, 'held whole: no read');
    await core.cards.read(c.id);
    assert.equal(reads(), m + 1, 'read(): always asks the service');
  });

  it('429 is honoured: the read waits Retry-After on the clock, then succeeds', async () => {
    const core = await signedIn();
    await w.ctl('POST', '/_sandbox/faults', { path: '/v1/assistants', status: 429, retryAfter: 7, times: 1 });
    let done = false;
    void core.assistants.refresh().then(() => (done = true));
    // The 429 has come back (the request begins after a proof is signed, which a busy machine can
    // make outlast a settle), and the client has taken it in.
    await until(() => core.transport.log.some((l) => l.path === '/v1/assistants' && l.status === 429));
    await settle(w.transports);
    const count = () => core.transport.log.filter((l) => l.path === '/v1/assistants').length;
    const n = count();
    await w.advance(6000);
    assert.equal(count(), n, 'not before Retry-After');
    await w.advance(1000);
    await until(() => done);
    assert.equal(count(), n + 1);
    assert.ok(core.assistants.list().length >= 2);
  });

  it('a 429 pauses the class: after Retry-After 5 on a read of one card, a read of another is not sent before 5 s', async () => {
    const core = await signedIn();
    const a = await w.card({ title: 'limited' });
    const b = await w.card({ title: 'another' });
    await w.advanceUntil(() => core.cards.get(a.id) !== undefined && core.cards.get(b.id) !== undefined, 1000, 30_000);
    await w.ctl('POST', '/_sandbox/faults', { path: `/v1/cards/${a.id}`, method: 'GET', status: 429, retryAfter: 5, times: 1 });
    const sent = (id: string) => core.transport.log.filter((l) => l.method === 'GET' && l.path === `/v1/cards/${id}`).length;
    const before = sent(b.id);
    let doneA = false;
    let doneB = false;
    void core.cards.read(a.id).then(() => (doneA = true));
    await until(() => core.transport.log.some((l) => l.path === `/v1/cards/${a.id}` && l.status === 429));
    await settle(w.transports);
    await w.advance(380);
    void core.cards.read(b.id).then(() => (doneB = true));
    await settle(w.transports);
    assert.equal(sent(b.id), before, 'the other card waits with its class');
    await w.advance(5000 - 380 - 1);
    assert.equal(sent(b.id), before, 'not before Retry-After has passed');
    await w.advance(1);
    await until(() => doneA && doneB);
    assert.equal(sent(b.id), before + 1);
  });

  it('an old DPoP nonce is answered use_dpop_nonce and the request repeated once', async () => {
    const core = w.core(); // not the feed owner: quiet between its slow reads
    await signInCore(w, core);
    w.sb.advance(11 * MIN); // only the service's clock: nonces rotate every 5 min, 5 min of grace
    const before = core.transport.log.length;
    await core.assistants.refresh();
    const log = core.transport.log.slice(before).filter((l) => l.path === '/v1/assistants');
    assert.deepEqual(log.map((l) => l.status), [401, 304], 'refused once, then repeated (unchanged: 304)');
    assert.notEqual(log[0]!.headers.dpop, log[1]!.headers.dpop);
  });
});

describe('sync: starting offline, gotIt, revoked sign-in', () => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld({ me: false });
  });
  afterEach(async () => {
    await w.close();
  });

  it('a stored sign-in started while the service fails is offline, then online by itself', async () => {
    const store = new MemorySecretStore();
    const a = w.core({ store });
    await signInCore(w, a);
    await a.dispose();
    await w.ctl('POST', '/_sandbox/faults', { path: '/v1/me', status: 503, times: 4 });
    const b = w.core({ store });
    const states: string[] = [];
    b.onDidChangeState((s) => states.push(s.kind));
    b.feed.setFocused(true);
    const started = b.start();
    await w.advanceUntil(() => states.includes('offline'), 500, 60_000);
    await started;
    await w.advanceUntil(() => b.state.kind === 'online', 1000, 5 * MIN);
    assert.deepEqual(states, ['offline', 'online']);
  });

  it('a sign-in started and cancelled in a signed-in window leaves it online', async () => {
    const core = w.core();
    await signInCore(w, core);
    const ac = new AbortController();
    let code: string | undefined;
    const p = core.signIn({ signal: ac.signal, onProgress: (s) => { if (s.step === 'code') code = s.userCode; } });
    p.catch(() => undefined);
    await until(() => code !== undefined);
    assert.equal(core.state.kind, 'signing-in');
    ac.abort();
    await assert.rejects(p);
    assert.equal(core.state.kind, 'online');
  });

  it('gotIt closes an update card with its version and nothing else', async () => {
    const core = w.core();
    core.feed.setFocused(true);
    await signInCore(w, core);
    const c = await w.card({ kind: 'update', title: 'deploy failed', options: undefined });
    await until(() => core.cards.get(c.id) !== undefined);
    const r = await pressOutsideThePath(core, core.gestures.fromUiEvent('click'), { id: c.id, version: c.version }, { type: 'gotIt' }).send();
    assert.equal(r.status, 'answered');
    const sent = core.transport.log.find((l) => l.path === `/v1/cards/${c.id}/answer`)!;
    assert.deepEqual(JSON.parse(sent.body!), { version: c.version });
  });

  it('a sign-in replaced elsewhere (same key signs in again) ends here as signed out, nothing kept', async () => {
    const store = new MemorySecretStore();
    const core = w.core({ store });
    core.feed.setFocused(true);
    await signInCore(w, core);
    await w.card();
    await core.cards.refresh();
    // Another copy with the same key signs in: the old sign-in is replaced on the service.
    const slot = signInSlot(w.url, w.machineId);
    const otherStore = new MemorySecretStore();
    await otherStore.store(slot.dpopKeyKey, (await store.get(slot.dpopKeyKey))!);
    const other = w.core({ store: otherStore });
    await signInCore(w, other);
    await core.cards.refresh().catch(() => undefined);
    await until(() => core.state.kind === 'signed-out');
    assert.equal(core.cards.list('pending').length, 0);
    assert.equal(await store.get(slot.tokensKey), undefined);
  });
});
