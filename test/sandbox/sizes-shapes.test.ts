// Sizes and shapes a hostile caller can send: JSON nested 200,000 deep, slow partial bodies, too
// many connections, bodies, ids and URLs too large, unknown content types. Each is refused with a
// 4xx (under /v1 a problem+json with its code), never a 500, and the sandbox keeps serving.
import { strict as assert } from 'node:assert';
import { connect, type Socket } from 'node:net';
import type { RunningSandbox } from '../../src/sandbox/index';
import { controlAuth, startSandbox } from './helpers';
import { makeWorld, type World } from '../kit';

const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const deepObject = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;

async function post(url: string, body: string, type = 'application/json') {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': type, ...controlAuth(url) }, body });
  return { status: res.status, type: res.headers.get('content-type') ?? '', json: JSON.parse((await res.text()) || 'null') as Record<string, unknown> };
}

describe('sandbox sizes and shapes', () => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld();
  });
  afterEach(async () => {
    await w.close();
  });

  it('a card with an extra field nested 200,000 deep is refused at creation (400), and reads keep working', async () => {
    const body = `{"agentId":${JSON.stringify(w.agentId)},"kind":"text","title":"deep","extra":${deep(200_000)}}`;
    const r = await post(`${w.url}/_sandbox/cards`, body);
    assert.equal(r.status, 400);
    assert.equal(r.json.code, 'invalid');
    const list = await w.me.request('GET', '/v1/cards');
    assert.equal(list.status, 200);
    assert.ok(!(list.json.cards as { title: string }[]).some((c) => c.title === 'deep'), 'nothing was made');
    // Nesting a wire shape could need (well under the limit) is still taken.
    const ok = await post(`${w.url}/_sandbox/cards`, `{"agentId":${JSON.stringify(w.agentId)},"kind":"text","title":"nested","extra":${deepObject(40)}}`);
    assert.equal(ok.status, 200);
    const read = await w.me.request('GET', `/v1/cards/${ok.json.id as string}`);
    assert.equal(read.status, 200);
  });

  it('deep JSON on /v1, OAuth and control routes: 400 (problem+json under /v1), never 500', async () => {
    const c = await w.card({ kind: 'approval', title: 'deep answer' });
    // The body is read before sign-in is checked: no token needed to reach the parser.
    const v1 = await post(`${w.url}/v1/cards/${c.id}/answer`, deep(100_000));
    assert.equal(v1.status, 400);
    assert.match(v1.type, /^application\/problem\+json/);
    assert.equal(v1.json.code, 'invalid');
    for (const path of ['/oauth/token', '/oauth/device_authorization', '/_sandbox/faults', '/_sandbox/device/approve', '/in/nothing']) {
      const r = await post(`${w.url}${path}`, deep(100_000));
      assert.ok(r.status >= 400 && r.status < 500, `${path}: ${r.status}`);
    }
  });

  it('/v1 refusals before any route are problem+json with their status: 413, 414, 415, 431', async () => {
    const c = await w.card({ kind: 'approval', title: 'sizes' });
    const big = await post(`${w.url}/v1/cards/${c.id}/answer`, JSON.stringify({ version: 1, text: 'x'.repeat(1_100_000) }));
    assert.equal(big.status, 413);
    assert.match(big.type, /^application\/problem\+json/);
    assert.equal(big.json.status, 413);
    assert.equal(big.json.code, 'invalid');
    const longId = await fetch(`${w.url}/v1/cards/req_${'a'.repeat(500)}`);
    assert.equal(longId.status, 414);
    assert.match(longId.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(((await longId.json()) as { code: string }).code, 'invalid');
    const xml = await post(`${w.url}/v1/cards/${c.id}/answer`, '<answer/>', 'application/xml');
    assert.equal(xml.status, 415);
    assert.match(xml.type, /^application\/problem\+json/);
    assert.equal(xml.json.code, 'invalid');
    const longUrl = await fetch(`${w.url}/v1/cards?q=${'a'.repeat(100_000)}`);
    assert.equal(longUrl.status, 431);
    assert.match(longUrl.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.equal(((await longUrl.json()) as { code: string }).code, 'invalid');
  });
});

describe('sandbox connection limits', () => {
  let sb: RunningSandbox | undefined;
  afterEach(async () => {
    await sb?.close();
    sb = undefined;
  });

  it('uses a 30 s request timeout and 256 connections at most by default', async () => {
    sb = await startSandbox({ port: 0 });
    assert.equal(sb.sandbox.app.server.requestTimeout, 30_000);
    assert.equal(sb.sandbox.app.server.maxConnections, 256);
    assert.equal(sb.sandbox.app.server.timeout, 60_000, 'idle connections close after a minute');
  });

  it('a slow partial body is cut off at the request timeout; the server keeps answering', async () => {
    sb = await startSandbox({ port: 0, requestTimeoutMs: 300 });
    const port = sb.port;
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write(`POST /_sandbox/faults HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAuthorization: Bearer ${sb.controlSecret}\r\nContent-Length: 1000\r\n\r\n{`);
    // A byte now and then: never idle, never finished.
    const drip = setInterval(() => { if (!socket.destroyed) socket.write(' '); }, 50);
    await closed;
    clearInterval(drip);
    assert.match(answer, /^HTTP\/1\.1 408/);
    assert.equal((await fetch(`${sb.url}/_sandbox/clock`)).status, 200);
  });

  it('connections over the cap are closed at once', async () => {
    sb = await startSandbox({ port: 0, maxConnections: 2 });
    const port = sb.port;
    const open = () => new Promise<{ socket: Socket; closed: Promise<void> }>((resolve) => {
      const s = connect(port, '127.0.0.1', () => resolve({ socket: s, closed: new Promise((r) => s.on('close', () => r())) }));
      s.on('error', () => undefined);
    });
    const a = await open();
    const b = await open();
    const c = await open();
    await c.closed; // the third is dropped by the server
    // The first two stay open: each is still served (an answer comes back on it).
    const served = (s: Socket) => new Promise<string>((resolve, reject) => {
      let text = '';
      s.on('data', (d) => { text += String(d); if (text.includes('\r\n\r\n')) resolve(text); });
      s.on('close', () => reject(new Error(`closed before an answer: ${JSON.stringify(text)}`)));
      s.write(`GET /_sandbox/clock HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    });
    for (const s of [a, b]) assert.match(await served(s.socket), /^HTTP\/1\.1 200/, 'the first two stay open and are served');
    a.socket.destroy();
    b.socket.destroy();
  });
});
