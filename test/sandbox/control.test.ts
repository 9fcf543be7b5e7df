// The control surface of DESIGN (the sandbox core's part): assistants, agents, sessions, cards,
// heard, pickup/withdraw/helper-answer, webhooks, clock, presence readout, received requests, reset.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { call, signIn, startSandbox } from './helpers';
import { answer, key, makeWorld, type World } from '../kit';
import { until } from '../kit/until';
import { nowOf, realClock } from '../kit/clocks';
import { ServerTime } from '../../src/api/server-time';

/** A computer, an assistant, its agent and one approval card asking it, on the sandbox at `url`. */
async function oneApproval(url: string) {
  const m = (await call('POST', `${url}/_sandbox/machines`, { name: 'pc' })).json;
  const a = (await call('POST', `${url}/_sandbox/assistants`, { name: 'a', app: 'codex', machineId: m.id })).json;
  const g = (await call('POST', `${url}/_sandbox/agents`, { assistantId: a.id, name: 'main' })).json;
  const c = (await call('POST', `${url}/_sandbox/cards`, { agentId: g.id, kind: 'approval', title: 'ok?' })).json;
  return { m, c };
}

describe('sandbox control surface', () => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  it('POST /_sandbox/cards answers the whole card with createdAt on the sandbox clock and extra fields kept', async () => {
    const r = await w.ctl('POST', '/_sandbox/cards', {
      agentId: w.agentId, kind: 'choice', title: 'T', summary: 'S', options: [{ id: 'x', label: 'X' }], recommendedIds: ['x'],
      urgency: 'now', blocking: true, highStakes: false, area: { id: 'prj_a', name: 'A' }, multi: false, customField: { a: 1 },
    });
    assert.equal(r.status, 200, r.text);
    assert.match(r.json.id, /^req_/);
    assert.equal(Date.parse(r.json.createdAt), w.sb.clock.now());
    assert.equal(r.json.urgency, 'now');
    assert.equal(r.json.blocking, true);
    assert.deepEqual(r.json.recommendedIds, ['x']);
    assert.deepEqual(r.json.customField, { a: 1 });
    assert.deepEqual(r.json.assistant, { id: w.assistantId, name: 'api', app: 'claude-code' });
    for (const bad of [{}, { agentId: 'agt_none', kind: 'choice', title: 'x' }, { agentId: w.agentId, title: 'x' }, { agentId: w.agentId, kind: 'choice' },
      { agentId: w.agentId, kind: 'choice', title: 'x', options: [{ id: 1 }] }, { agentId: w.agentId, kind: 'choice', title: 'x', area: { id: 'bad', name: 'x' } }]) {
      assert.equal((await w.ctl('POST', '/_sandbox/cards', bad)).status, 400, JSON.stringify(bad));
    }
  });

  it('assistants, agents and sessions refuse bad input; a session can be refreshed and deleted', async () => {
    assert.equal((await w.ctl('POST', '/_sandbox/assistants', { name: 'x', app: 'vim', machineId: w.machine.id })).status, 400);
    assert.equal((await w.ctl('POST', '/_sandbox/assistants', { name: 'x', app: 'codex', machineId: 'mch_unknown' })).status, 400);
    assert.equal((await w.ctl('POST', '/_sandbox/agents', { name: 'x', assistantId: 'con_none' })).status, 400);
    assert.equal((await w.ctl('POST', '/_sandbox/sessions', { agentId: w.agentId })).status, 400);
    const s = await w.ctl('POST', '/_sandbox/sessions', { agentId: w.agentId, cwd: '/x', terminal: { pid: 7 } });
    assert.match(s.json.appSessionId, /^ses_/);
    await w.advance(1000);
    const again = await w.ctl('POST', '/_sandbox/sessions', { agentId: w.agentId, appSessionId: s.json.appSessionId, cwd: '/x' });
    assert.equal(Date.parse(again.json.liveAt), w.sb.clock.now());
    assert.equal((await w.ctl('DELETE', `/_sandbox/sessions/${s.json.appSessionId}`)).status, 200);
    assert.equal((await w.ctl('DELETE', `/_sandbox/sessions/${s.json.appSessionId}`)).status, 404);
  });

  it('clock: advance moves the manual clock; the real clock refuses', async () => {
    const before = (await w.ctl('GET', '/_sandbox/clock')).json;
    assert.equal(before.manual, true);
    const r = await w.ctl('POST', '/_sandbox/clock/advance', { ms: 1500 });
    assert.equal(r.json.ms, before.ms + 1500);
    assert.equal(Date.parse(r.json.now), before.ms + 1500);
    assert.equal((await w.ctl('POST', '/_sandbox/clock/advance', { ms: -1 })).status, 400);
    // #37: 1e300 put the clock past any date for good; it is refused and the clock still tells its time.
    for (const ms of [1e300, 11 * 366 * 24 * 3600_000]) assert.equal((await w.ctl('POST', '/_sandbox/clock/advance', { ms })).status, 400, String(ms));
    const after = await w.ctl('GET', '/_sandbox/clock');
    assert.equal(after.status, 200);
    assert.equal(after.json.ms, before.ms + 1500, 'a refused advance moved nothing');
    const real = await startSandbox({ port: 0 });
    try {
      assert.equal((await call('POST', `${real.url}/_sandbox/clock/advance`, { ms: 1 })).status, 409);
      assert.equal((await call('GET', `${real.url}/_sandbox/clock`)).json.manual, false);
    } finally {
      await real.close();
    }
  });

  it('clock: jump moves the real clock forward at once, and what falls due runs then; a manual clock refuses it', async () => {
    assert.equal((await w.ctl('POST', '/_sandbox/clock/jump', { ms: 1000 })).status, 409, 'a manual clock moves by advance');
    const real = await startSandbox({ port: 0 });
    try {
      const { m, c } = await oneApproval(real.url);
      const me = await signIn(real.url, { machine: m, scopes: ['cards:read', 'cards:later'] });
      const until = new Date(Date.now() + 61_000).toISOString();
      const later = await me.request('POST', `/v1/cards/${c.id}/later`, { body: { until }, headers: { 'idempotency-key': key() } });
      assert.equal(later.status, 200, later.text);
      for (const bad of [{}, { ms: -1 }, { ms: 'x' }]) assert.equal((await call('POST', `${real.url}/_sandbox/clock/jump`, bad)).status, 400, JSON.stringify(bad));
      assert.equal((await call('GET', `${real.url}/_sandbox/cards/${c.id}`)).json.status, 'snoozed');
      const before = Date.now();
      const j = await call('POST', `${real.url}/_sandbox/clock/jump`, { ms: 61_000 });
      assert.equal(j.status, 200, j.text);
      assert.ok(j.json.ms >= before + 61_000 && j.json.ms <= Date.now() + 61_000, `jumped: ${j.json.now}`);
      // Later's end fell within the jump: the card is back now, not a minute from now.
      assert.equal((await call('GET', `${real.url}/_sandbox/cards/${c.id}`)).json.status, 'pending');
      // And the clock runs on from there.
      const clock = (await call('GET', `${real.url}/_sandbox/clock`)).json;
      assert.equal(clock.manual, false);
      assert.ok(clock.ms >= j.json.ms, 'time never runs back');
    } finally {
      await real.close();
    }
  });

  it('Date is the service\'s own time after a jump (and on a manual clock): a client refused for its proof\'s time corrects from it', async () => {
    // The manual clock ten minutes on: every answer's Date says so, the control surface's and /v1's.
    await w.advance(10 * 60_000);
    const dateOf = (h: Headers) => Date.parse(h.get('date') ?? '');
    assert.equal(dateOf((await w.ctl('GET', '/_sandbox/clock')).headers), Math.floor(w.sb.clock.now() / 1000) * 1000);
    const real = await startSandbox({ port: 0 });
    try {
      const { m, c } = await oneApproval(real.url);
      // This computer's clock as the client keeps it: corrected from the service's Date after a refusal.
      const time = new ServerTime(realClock);
      const me = await signIn(real.url, { machine: m, scopes: ['cards:read'], now: nowOf(time) });
      assert.equal((await me.request('GET', `/v1/cards/${c.id}`)).status, 200);
      // Two minutes on at once: this computer's proofs are now too old for the service.
      await call('POST', `${real.url}/_sandbox/clock/jump`, { ms: 120_000 });
      const refused = await me.request('GET', `/v1/cards/${c.id}`);
      assert.equal(refused.status, 401, refused.text);
      assert.match(refused.headers.get('www-authenticate') ?? '', /invalid_dpop_proof/);
      const service = (await call('GET', `${real.url}/_sandbox/clock`)).json.ms as number;
      assert.ok(Math.abs(dateOf(refused.headers) - service) <= 2000, `the refusal's Date is the service's time: ${refused.headers.get('date')} vs ${new Date(service).toISOString()}`);
      assert.ok(time.correctFrom(refused.headers.get('date') ?? undefined), 'the Date says the service is ahead');
      assert.equal((await me.request('GET', `/v1/cards/${c.id}`)).status, 200, 'the proof made on the Date\'s time is good');
    } finally {
      await real.close();
    }
  });

  it('the real clock runs holds and Later by itself', async function () {
    this.timeout(15_000);
    const real = await startSandbox({ port: 0 });
    try {
      const { m, c } = await oneApproval(real.url);
      const me = await signIn(real.url, { machine: m, scopes: ['cards:read', 'cards:answer'] });
      await answer(me, c.id, { version: 1, approved: true });
      // The hold (5 s of real time) ends by itself: the assistant hears the answer.
      const heard = await until('the answer heard by the assistant once the real hold ended', async () => {
        const h = (await call('GET', `${real.url}/_sandbox/cards/${c.id}/heard`)).json.heard as unknown[];
        return h.length > 0 && h;
      }, 10_000, 200);
      assert.equal(heard.length, 1);
    } finally {
      await real.close();
    }
  });

  it('hold: a shorter hold is told to the sandbox; answers and hand-overs get it, bad values are refused, reset restores 5 s', async () => {
    assert.deepEqual((await w.ctl('GET', '/_sandbox/hold')).json, { ms: 5000 });
    for (const bad of [{}, { ms: -1 }, { ms: 5001 }, { ms: 1.5 }, { ms: '1000' }, { ms: null }]) {
      assert.equal((await w.ctl('POST', '/_sandbox/hold', bad)).status, 400, JSON.stringify(bad));
    }
    assert.deepEqual((await w.ctl('GET', '/_sandbox/hold')).json, { ms: 5000 }, 'a refused value changes nothing');
    assert.deepEqual((await w.ctl('POST', '/_sandbox/hold', { ms: 800 })).json, { ms: 800 });
    assert.deepEqual((await w.ctl('GET', '/_sandbox/hold')).json, { ms: 800 });

    // An answer: undoUntil and the moment the assistant hears it follow the shorter hold.
    const c = await w.card();
    const r = await answer(w.me, c.id, { version: c.version, choiceIds: ['a'] });
    assert.equal(Date.parse(r.json.undoUntil), w.sb.clock.now() + 800);
    const heard = async () => (await w.ctl('GET', `/_sandbox/cards/${c.id}/heard`)).json.heard.length as number;
    await w.advance(799);
    assert.equal(await heard(), 0, 'not heard before the hold ends');
    await w.advance(1);
    assert.equal(await heard(), 1, 'heard when the shorter hold ends');

    // A hand-over: the helper sees the card once the shorter hold is over.
    const d = await w.card();
    const h = await w.me.request('POST', `/v1/cards/${d.id}/delegate`, { body: { to: { assistantId: w.helperId }, mode: 'freely' }, headers: { 'idempotency-key': key() } });
    assert.equal(Date.parse(h.json.undoUntil), w.sb.clock.now() + 800, h.text);
    const seen = async () => (await w.ctl('GET', `/_sandbox/assistants/${w.helperId}/helper-cards`)).json.cards.length as number;
    assert.equal(await seen(), 0);
    await w.advance(800);
    assert.equal(await seen(), 1);

    await w.ctl('POST', '/_sandbox/reset');
    assert.deepEqual((await w.ctl('GET', '/_sandbox/hold')).json, { ms: 5000 }, 'reset: back to DESIGN\'s 5 s');
  });

  it('reset: back to the state it started with (cards, webhooks, sign-ins, faults, limits)', async () => {
    const c = await w.card();
    const hook = (await w.ctl('POST', '/_sandbox/webhooks', { name: 'h', area: { id: 'prj_h', name: 'H' } })).json;
    await w.ctl('POST', '/_sandbox/faults', { path: '/v1/assistants', status: 500, times: 5 });
    await w.me.request('POST', '/v1/presence', { body: { here: true } });
    const r = await w.ctl('POST', '/_sandbox/reset');
    assert.equal(r.status, 200);
    assert.equal((await w.ctl('GET', `/_sandbox/cards/${c.id}`)).status, 404);
    assert.equal((await fetch(hook.url, { method: 'POST', body: '{"title":"x"}' })).status, 401);
    assert.deepEqual((await w.ctl('GET', '/_sandbox/faults')).json.faults, []);
    assert.equal((await w.ctl('GET', '/_sandbox/presence')).json.here, false);
    assert.equal((await w.me.request('GET', '/v1/cards')).status, 401, 'sign-ins are gone');
  });

  it('GET /_sandbox/received lists the service requests received (query kept), not the control surface, emptied by reset', async () => {
    await w.me.request('GET', '/v1/cards?status=done');
    await w.ctl('GET', '/_sandbox/faults');
    const got = (await w.ctl('GET', '/_sandbox/received')).json.received as { method: string; url: string; at: string }[];
    assert.ok(got.some((r) => r.method === 'GET' && r.url === '/v1/cards?status=done'), JSON.stringify(got));
    assert.ok(got.every((r) => !r.url.startsWith('/_sandbox')), 'the control surface is not listed');
    assert.equal(Date.parse(got[got.length - 1]!.at), w.sb.clock.now());
    await w.ctl('POST', '/_sandbox/reset');
    assert.deepEqual((await w.ctl('GET', '/_sandbox/received')).json.received, []);
  });

  it('GET /_sandbox/received holds no notice address: /in/<token> is kept as /in/… (control reads need no secret, #35)', async () => {
    const hook = (await w.ctl('POST', '/_sandbox/webhooks', { name: 'Deploys', area: { id: 'prj_web', name: 'Web' } })).json;
    const token = new URL(hook.url).pathname.split('/').pop()!;
    assert.ok(token.length > 8);
    const posted = await fetch(`${hook.url}?source=ci`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"Deploy failed"}' });
    assert.ok(posted.status < 300, String(posted.status));
    assert.equal((await fetch(`${w.url}/in/not-a-hook`, { method: 'POST', body: '{"title":"x"}' })).status, 401);
    const read = await fetch(`${w.url}/_sandbox/received`); // as anyone on the computer reads it: no secret
    assert.equal(read.status, 200);
    const text = await read.text();
    assert.ok(!text.includes(token), 'no webhook token');
    const got = (JSON.parse(text) as { received: { method: string; url: string }[] }).received.filter((r) => r.url.startsWith('/in/'));
    assert.deepEqual(got.map((r) => `${r.method} ${r.url}`), ['POST /in/…?source=ci', 'POST /in/…']);
  });

  it('webhooks: made with an address shown, refused without a name or a prj_ area, 404 for an unknown one', async () => {
    const h = await w.ctl('POST', '/_sandbox/webhooks', { name: 'CI', area: { id: 'prj_ci', name: 'CI' } });
    assert.match(h.json.url, new RegExp(`^${w.url}/in/`));
    assert.equal((await w.ctl('POST', '/_sandbox/webhooks', { area: { id: 'prj_ci', name: 'CI' } })).status, 400);
    assert.equal((await w.ctl('POST', '/_sandbox/webhooks', { name: 'x', area: { id: 'ci', name: 'CI' } })).status, 400);
    assert.equal((await w.ctl('POST', '/_sandbox/webhooks/whk_none/pause')).status, 404);
  });

  it('{base_url} is --public-url when given, else the request\'s loopback name on the port the sandbox listens on', async () => {
    const pub = await startSandbox({ port: 0, publicUrl: 'https://cards.example.com/' });
    try {
      assert.equal(pub.url, 'https://cards.example.com');
      const local = `http://127.0.0.1:${pub.port}`;
      const m = (await call('POST', `${local}/_sandbox/machines`, { name: 'pc' })).json;
      const a = (await call('POST', `${local}/_sandbox/assistants`, { name: 'a', app: 'codex', machineId: m.id })).json;
      const g = (await call('POST', `${local}/_sandbox/agents`, { assistantId: a.id, name: 'main' })).json;
      const c = (await call('POST', `${local}/_sandbox/cards`, { agentId: g.id, kind: 'text', title: 't' })).json;
      assert.equal(c.url, `https://cards.example.com/cards/${c.id}`);
      const p = await call('GET', `${local}/v1/cards`);
      assert.equal(p.status, 401);
    } finally {
      await pub.close();
    }
    // a request with a loopback Host on another port (a port forward, or anyone on this computer):
    // served, but the address keeps the port the sandbox listens on, never the header's
    // (another name is refused: test/sandbox/request-guard.test.ts)
    const made = await new Promise<string>((resolve, reject) => {
      const body = JSON.stringify({ name: 'h2', area: { id: 'prj_h', name: 'H' } });
      const req = httpRequest({ host: '127.0.0.1', port: w.sb.port, path: '/_sandbox/webhooks', method: 'POST',
        headers: { host: 'localhost:8443', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${w.sb.controlSecret}` } }, (res) => {
        let t = '';
        res.on('data', (d: Buffer) => (t += d.toString()));
        res.on('end', () => resolve(t));
      });
      req.on('error', reject);
      req.end(body);
    });
    assert.match((JSON.parse(made) as { url: string }).url, new RegExp(`^http://localhost:${w.sb.port}/in/`));
  });

  it('unknown control and service paths answer 404', async () => {
    assert.equal((await w.ctl('GET', '/_sandbox/nothing')).status, 404);
    assert.equal((await w.ctl('GET', '/_sandbox/cards/req_none/heard')).status, 404);
  });
});
