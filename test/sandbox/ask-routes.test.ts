// The asking surface as a contract (docs/ask-api.md): every answer of /_ask is parsed with the
// strict schemas of src/api/ask-schemas.ts, so a route that answers a shape the module does not
// allow fails here. Also: a body field an asker may not set is refused by name (#52 F5); each
// session's own key reaches only its own session and cards (#52 F9); a hold's end is a change
// the wait hears on the feed (#53); a wait that ends inside the hold holds on (#52 F8).
import { strict as assert } from 'node:assert';
import type * as z from 'zod/mini';
import {
  AskedCardState, AskProblem, HeardAnswer, Registered, SessionEnded, Withdrawn,
} from '../../src/api/ask-schemas';
import type { RunningSandbox } from '../../src/sandbox';
import { until } from '../kit/until';
import { setHold, signIn, startSandbox, type SignedIn } from './helpers';

interface Sent { status: number; json: unknown }

describe('the asking surface (/_ask) as a contract', function () {
  this.timeout(30_000);
  let sb: RunningSandbox;
  let person: SignedIn;

  beforeEach(async () => {
    sb = await startSandbox({ port: 0 });
    person = await signIn(sb.url);
  });
  afterEach(async () => { await sb.close(); });

  const send = async (method: string, route: string, key: string, body?: unknown): Promise<Sent> => {
    const r = await fetch(`${sb.url}${route}`, {
      method, headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await r.text();
    return { status: r.status, json: text ? JSON.parse(text) : undefined };
  };
  /** The answer, parsed with the module's schema: a field it does not name, or one missing, fails. */
  const shaped = <T>(schema: z.ZodMiniType<T>, r: Sent, status = 200): T => {
    assert.equal(r.status, status, JSON.stringify(r.json));
    const parsed = schema.safeParse(r.json);
    assert.ok(parsed.success, `answer not of the schema: ${JSON.stringify(r.json)}: ${parsed.success ? '' : JSON.stringify(parsed.error.issues)}`);
    return parsed.data;
  };
  const problem = (r: Sent, status: number) => shaped(AskProblem, r, status);
  const register = (appSessionId: string, key = sb.askKey, extra: Record<string, unknown> = {}) =>
    send('POST', '/_ask/sessions', key, { app: 'claude-code', appSessionId, cwd: '/home/dev/shop', terminal: { pid: 7, tty: '/dev/pts/1' }, ...extra });
  const approval = { kind: 'approval', title: 'Run make deploy?', summary: 'make deploy', blocking: true, reason: 'permission' };
  const answer = async (id: string, body: Record<string, unknown>) => {
    const c = (await person.request('GET', `/v1/cards/${id}`)).json.card as { version: number };
    const r = await person.request('POST', `/v1/cards/${id}/answer`, { body: { version: c.version, ...body }, headers: { 'idempotency-key': `k-${id}-${Math.random()}` } });
    assert.equal(r.status, 200, r.text);
    return r.json as { version: number; undoUntil: string };
  };

  it('every route answers a shape of the schema module: register with a card, ask, wait with pickup, withdraw, end', async () => {
    const reg = shaped(Registered, await register('s-1', sb.askKey, { card: approval }));
    assert.equal(reg.new, true);
    assert.equal(reg.card?.status, 'pending');
    const key = reg.sessionKey;
    // Registering again, with the session's own key: the same key back, not new.
    const again = shaped(Registered, await register('s-1', key));
    assert.equal(again.new, false);
    assert.equal(again.sessionKey, key);
    const second = shaped(AskedCardState, await send('POST', '/_ask/cards', key, { appSessionId: 's-1', kind: 'text', title: 'Name it', reason: 'ask' }));
    shaped(HeardAnswer, await send('GET', `/_ask/cards/${second.id}/heard?seen=0&wait=0`, key));
    await setHold(sb, 0);
    await answer(reg.card!.id, { approved: false });
    const heard = shaped(HeardAnswer, await send('GET', `/_ask/cards/${reg.card!.id}/heard?seen=0&wait=2000&pickup=1`, key));
    assert.equal(heard.heard[0]?.body.approved, false);
    assert.equal(heard.pickedUp, true);
    assert.equal(heard.status, 'done', 'picked up in the same call');
    assert.equal(problem(await send('POST', `/_ask/cards/${reg.card!.id}/pickup`, key), 409).code, 'conflict');
    shaped(AskedCardState, await send('POST', `/_ask/cards/${reg.card!.id}/withdraw`, key));
    const w = shaped(Withdrawn, await send('POST', '/_ask/sessions/s-1/withdraw', key, { reasons: ['ask'] }));
    assert.deepEqual(w.withdrawn, [second.id]);
    const ended = shaped(SessionEnded, await send('DELETE', '/_ask/sessions/s-1', key));
    assert.equal(ended.ended, true);
    // Ended, its key is no key any more, not even once the same session registers again.
    problem(await send('POST', '/_ask/sessions/s-1/withdraw', key, {}), 401);
    const anew = shaped(Registered, await register('s-1'));
    assert.notEqual(anew.sessionKey, key);
    problem(await send('POST', '/_ask/sessions/s-1/withdraw', key, {}), 401);
  });

  it('F5: a field an asker may not set is refused with a problem that names it, and no card is made', async () => {
    const { sessionKey: key } = shaped(Registered, await register('s-f5'));
    const forged: Record<string, unknown> = {
      proposal: { approved: true, helper: { assistantId: 'con_x' } },
      area: { id: 'prj_x', name: 'Payments' },
      webhook: { name: 'Security Review (helper)' },
      answeredFrom: { app: 'Phone' },
      delegatedTo: { assistantId: 'con_x', mode: 'freely' },
      history: [{ at: '2026-01-01T00:00:00Z', type: 'answered' }],
      answer: { approved: true },
      status: 'done',
      threadId: 'req_other',
    };
    for (const [field, value] of Object.entries(forged)) {
      const p = problem(await send('POST', '/_ask/cards', key, { appSessionId: 's-f5', ...approval, [field]: value }), 400);
      assert.equal(p.code, 'invalid');
      assert.deepEqual(p.errors?.map((e) => e.field), [field], JSON.stringify(p));
      assert.match(p.detail, new RegExp(`^${field}: not a field an asker may set`));
    }
    const bag = problem(await send('POST', '/_ask/cards', key, { appSessionId: 's-f5', ...approval, fields: { proposal: { approved: true }, webhook: {} } }), 400);
    assert.deepEqual(bag.errors?.map((e) => e.field), ['fields', 'fields.proposal', 'fields.webhook']);
    // The registration's card is held to the same list.
    const inReg = problem(await register('s-f5b', sb.askKey, { card: { ...approval, proposal: { approved: true } } }), 400);
    assert.deepEqual(inReg.errors?.map((e) => e.field), ['card.proposal']);
    const listed = (await person.request('GET', '/v1/cards')).json.cards as unknown[];
    assert.equal(listed.length, 0, 'no card was made');
  });

  it('F9: a session\'s key reads, withdraws and registers only its own session; the run\'s ask key only registers', async () => {
    const a = shaped(Registered, await register('s-a', sb.askKey, { card: approval }));
    const b = shaped(Registered, await register('s-b', sb.askKey, { card: approval }));
    assert.notEqual(a.sessionKey, b.sessionKey);
    const bCard = b.card!.id;
    // The ask key: no reads, no withdrawals, no cards, no end; registering a keyed session again is refused.
    assert.equal(problem(await send('GET', `/_ask/cards/${bCard}/heard`, sb.askKey), 403).code, 'forbidden');
    problem(await send('POST', `/_ask/cards/${bCard}/withdraw`, sb.askKey), 403);
    problem(await send('POST', '/_ask/cards', sb.askKey, { appSessionId: 's-b', ...approval }), 403);
    problem(await send('DELETE', '/_ask/sessions/s-b', sb.askKey), 403);
    assert.equal(problem(await register('s-b', sb.askKey, { terminal: { pid: 666, tty: '/dev/pts/9' } }), 409).code, 'conflict');
    // A's key: B's card is not found, B's session is not A's to withdraw, end or register.
    assert.equal(problem(await send('GET', `/_ask/cards/${bCard}/heard`, a.sessionKey), 404).code, 'not_found');
    problem(await send('POST', `/_ask/cards/${bCard}/withdraw`, a.sessionKey), 404);
    problem(await send('POST', `/_ask/cards/${bCard}/pickup`, a.sessionKey), 404);
    problem(await send('POST', '/_ask/sessions/s-b/withdraw', a.sessionKey, {}), 403);
    problem(await send('DELETE', '/_ask/sessions/s-b', a.sessionKey), 403);
    problem(await send('POST', '/_ask/cards', a.sessionKey, { appSessionId: 's-b', ...approval }), 403);
    problem(await register('s-b', a.sessionKey, { terminal: { pid: 666 } }), 403);
    // B is as it was: its card open, its terminal its own.
    const bState = shaped(HeardAnswer, await send('GET', `/_ask/cards/${bCard}/heard`, b.sessionKey));
    assert.equal(bState.status, 'pending');
    const sessions = ((await person.request('GET', '/v1/assistants')).json.assistants as { agents: { liveSessions: { appSessionId: string; terminal?: { pid?: number } }[] }[] }[])
      .flatMap((x) => x.agents.flatMap((g) => g.liveSessions));
    assert.equal(sessions.find((s) => s.appSessionId === 's-b')?.terminal?.pid, 7);
    // No key at all, or a made-up one.
    problem(await send('GET', `/_ask/cards/${bCard}/heard`, 'ses_nothing'), 401);
  });

  it('a hold\'s end is a change: it raises the version, shows in the feed, and ends the asker\'s wait without polling', async () => {
    await setHold(sb, 400);
    const reg = shaped(Registered, await register('s-h', sb.askKey, { card: approval }));
    const id = reg.card!.id;
    const start = (await person.request('GET', '/v1/changes')).json.cursor as string;
    const waiting = send('GET', `/_ask/cards/${id}/heard?seen=0&wait=10000`, reg.sessionKey);
    // The wait listens to the change feed (no person's long-poll is open here: it is the wait's).
    await until('the wait listening to the feed', () => sb.sandbox.feed.listening === 1 || undefined, 5_000, 5);
    const given = await answer(id, { approved: true });
    const heard = shaped(HeardAnswer, await waiting);
    const at = Date.now();
    assert.equal(heard.heard.length, 1);
    assert.ok(at - Date.parse(given.undoUntil) < 1_000, 'heard as the hold ended');
    assert.equal(heard.version, given.version + 1, 'the hold\'s end raised the version');
    const changes = (await person.request('GET', `/v1/changes?after=${encodeURIComponent(start)}`)).json.changes as { type: string; cardId: string }[];
    assert.deepEqual(changes.filter((c) => c.cardId === id).map((c) => c.type), ['card.answered', 'card.changed']);
    assert.equal(sb.sandbox.feed.listening, 0, 'the wait stopped listening');
  });

  it('F8: a wait that ends while an answer is in its hold holds on until the hold ends, and the asker hears it', async () => {
    await setHold(sb, 1_500);
    const reg = shaped(Registered, await register('s-f8', sb.askKey, { card: approval }));
    const id = reg.card!.id;
    const waiting = send('GET', `/_ask/cards/${id}/heard?seen=0&wait=600&pickup=1`, reg.sessionKey);
    await new Promise((r) => setTimeout(r, 300));
    await answer(id, { approved: false, note: { text: 'not on a Friday' } });
    const heard = shaped(HeardAnswer, await waiting);
    assert.deepEqual(heard.heard.map((h) => h.body.approved), [false], 'the decline reached the asker');
    assert.equal(heard.status, 'done');
    // Nothing in the hold: the wait ends when it was told.
    const other = shaped(AskedCardState, await send('POST', '/_ask/cards', reg.sessionKey, { appSessionId: 's-f8', ...approval }));
    const t0 = Date.now();
    shaped(HeardAnswer, await send('GET', `/_ask/cards/${other.id}/heard?seen=0&wait=300`, reg.sessionKey));
    assert.ok(Date.now() - t0 < 1_200);
  });

  it('the control surface and /_ask share one implementation: a session ended there withdraws the cards asked here', async () => {
    const reg = shaped(Registered, await register('s-c', sb.askKey, { card: approval }));
    const r = await fetch(`${sb.url}/_sandbox/sessions/s-c`, { method: 'DELETE', headers: { authorization: `Bearer ${sb.controlSecret}` } });
    assert.equal(r.status, 200);
    assert.deepEqual(((await r.json()) as { withdrawn: string[] }).withdrawn, [reg.card!.id]);
    const heard = await fetch(`${sb.url}/_sandbox/cards/${reg.card!.id}/heard`, { headers: { authorization: `Bearer ${sb.controlSecret}` } });
    assert.deepEqual(((await heard.json()) as { heard: unknown[] }).heard, []);
  });
});
