import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as path from 'node:path';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Agent, EnvHttpProxyAgent, ProxyAgent } from 'undici';
import { MalformedResponseError, NetworkError } from '../../src/api/errors';
import { bypassesProxy, createDispatcher, createTransport, MAX_RESPONSE_BYTES, REFUSED_BEFORE_CONNECT } from '../../src/api/http';
import { systemCertificates } from '../../src/api/system-certificates';
import { deadPort, startProxy } from '../helpers/proxy';
import { until } from '../kit/until';

function withEnv(vars: Record<string, string | undefined>, fn: () => void) {
  const saved: Record<string, string | undefined> = {};
  for (const k of Object.keys(vars)) {
    saved[k] = process.env[k];
    if (vars[k] === undefined) delete process.env[k];
    else process.env[k] = vars[k];
  }
  try {
    fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe('api http: agent, proxies, timeouts', () => {
  it('a keep-alive Agent without proxy settings, a proxy agent with them (the environment or the editor setting)', () => {
    const none = { HTTP_PROXY: undefined, HTTPS_PROXY: undefined, http_proxy: undefined, https_proxy: undefined };
    withEnv(none, () => assert.ok(createDispatcher() instanceof Agent));
    withEnv({ ...none, HTTPS_PROXY: 'http://proxy.local:3128' }, () => assert.ok(createDispatcher() instanceof EnvHttpProxyAgent));
    withEnv(none, () => assert.ok(createDispatcher({ proxy: { url: 'http://proxy.local:3128' } }) instanceof EnvHttpProxyAgent));
    assert.ok(!(createDispatcher() instanceof ProxyAgent));
  });

  it('refuses a response timeout that would cut the 25 s long-poll', () => {
    assert.throws(() => createDispatcher({ headersTimeoutMs: 20_000 }), RangeError);
  });

  describe('through a real proxy (the npm package `proxy`)', () => {
    let target: http.Server;
    let targetPort: number;
    before(async () => {
      target = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
      await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
      targetPort = (target.address() as AddressInfo).port;
    });
    after(() => { target.closeAllConnections(); target.close(); });

    it('the setting\'s proxy carries every request: the address used is reachable only through it', async () => {
      // `cards.test` resolves nowhere (RFC 2606): only the proxy knows where it is.
      const proxy = await startProxy({ route: { [`cards.test:${targetPort}`]: `127.0.0.1:${targetPort}` } });
      const url = `http://cards.test:${targetPort}/v1/me`;
      const direct = createTransport();
      await assert.rejects(direct.send({ method: 'GET', url, headers: {} }), NetworkError, 'the name means nothing without the proxy');
      await direct.close();
      const t = createTransport({ proxy: { url: proxy.url } });
      try {
        for (let i = 0; i < 3; i++) assert.equal((await t.send({ method: 'GET', url, headers: {} })).text, '{"ok":true}');
        assert.ok(proxy.tunnels.length >= 1 && proxy.tunnels.every((x) => x === `cards.test:${targetPort}`), proxy.tunnels.join(', '));
      } finally {
        await t.close();
        await proxy.close();
      }
    });

    it('loopback (127.0.0.0/8, [::1], localhost) never goes through a proxy, from the setting or the environment', async () => {
      const proxy = await startProxy({ route: { [`cards.test:${targetPort}`]: `127.0.0.1:${targetPort}` } });
      const v6 = http.createServer((_req, res) => res.writeHead(200).end('six'));
      const v6Port = await new Promise<number | undefined>((resolve) => {
        v6.once('error', () => resolve(undefined)); // no IPv6 loopback on this machine
        v6.listen(0, '::1', () => resolve((v6.address() as AddressInfo).port));
      });
      const loopback = [`http://127.0.0.1:${targetPort}/x`, `http://localhost:${targetPort}/x`, `http://127.0.0.1:${targetPort}/x?y`,
        ...(v6Port !== undefined ? [`http://[::1]:${v6Port}/x`] : [])];
      const saved = { HTTP_PROXY: process.env.HTTP_PROXY, NO_PROXY: process.env.NO_PROXY };
      process.env.HTTP_PROXY = proxy.url;
      delete process.env.NO_PROXY;
      const fromSetting = createTransport({ proxy: { url: proxy.url } });
      const fromEnv = createTransport();
      try {
        for (const t of [fromSetting, fromEnv]) {
          for (const url of loopback) assert.equal((await t.send({ method: 'GET', url, headers: { authorization: 'DPoP token' } })).status, 200, url);
          // the same transport still takes other names through the proxy
          assert.equal((await t.send({ method: 'GET', url: `http://cards.test:${targetPort}/x`, headers: {} })).status, 200);
        }
        assert.deepEqual(proxy.tunnels, [`cards.test:${targetPort}`, `cards.test:${targetPort}`], 'only the proxied name reached the proxy');
        for (const u of ['http://127.5.6.7:1/', 'https://[::1]/', 'http://LOCALHOST./']) assert.ok(bypassesProxy(u), u);
        for (const u of ['http://cards.test/', 'http://127.0.0.1.nip.io/', 'http://[::2]/', 'http://0.0.0.0/', 'not a url']) assert.ok(!bypassesProxy(u), u);
      } finally {
        for (const [k, v] of Object.entries(saved)) { if (v === undefined) delete process.env[k]; else process.env[k] = v; }
        await fromSetting.close();
        await fromEnv.close();
        await proxy.close();
        v6.close();
      }
    });

    it('a loopback address that nothing answers is named as itself, never as the proxy', async () => {
      const proxy = await startProxy();
      const dead = await deadPort();
      const t = createTransport({ proxy: { url: proxy.url } });
      try {
        await assert.rejects(t.send({ method: 'GET', url: `http://127.0.0.1:${dead}/v1/me`, headers: {} }), (e: unknown) => {
          assert.ok(e instanceof NetworkError);
          assert.doesNotMatch(e.message, /proxy/);
          return true;
        });
        assert.deepEqual(proxy.tunnels, []);
      } finally {
        await t.close();
        await proxy.close();
      }
    });

    it('http.noProxy hosts are reached directly', async () => {
      const proxy = await startProxy();
      const t = createTransport({ proxy: { url: proxy.url, noProxy: ['cards.test'] } });
      try {
        await assert.rejects(t.send({ method: 'GET', url: `http://cards.test:${targetPort}/x`, headers: {} }), NetworkError, 'not through the proxy, so not found');
        assert.deepEqual(proxy.tunnels, []);
      } finally {
        await t.close();
        await proxy.close();
      }
    });

    it('http.proxyAuthorization reaches the proxy; without it the person is told the proxy wants credentials', async () => {
      const proxy = await startProxy({ credentials: 'me:secret', route: { [`cards.test:${targetPort}`]: `127.0.0.1:${targetPort}` } });
      const url = `http://cards.test:${targetPort}/x`;
      const without = createTransport({ proxy: { url: proxy.url } });
      await assert.rejects(without.send({ method: 'GET', url, headers: {} }),
        (e: unknown) => e instanceof NetworkError && /the proxy http:\/\/127\.0\.0\.1:\d+ asks for credentials \(407\); set http\.proxyAuthorization/.test(e.message));
      await without.close();
      const withAuth = createTransport({ proxy: { url: proxy.url, authorization: `Basic ${Buffer.from('me:secret').toString('base64')}` } });
      try {
        assert.equal((await withAuth.send({ method: 'GET', url, headers: {} })).status, 200);
        assert.equal(proxy.refused, 1);
      } finally {
        await withAuth.close();
        await proxy.close();
      }
    });

    it('a wrong proxy: the person is told which proxy cannot be reached and which setting to check', async () => {
      const dead = await deadPort();
      const t = createTransport({ proxy: { url: `http://user:pw@127.0.0.1:${dead}` } });
      await assert.rejects(t.send({ method: 'GET', url: `http://cards.test:${targetPort}/x`, headers: {} }), (e: unknown) => {
        assert.ok(e instanceof NetworkError);
        assert.match(e.message, new RegExp(`the proxy http://127\\.0\\.0\\.1:${dead} cannot be reached \\(ECONNREFUSED\\); check the http\\.proxy setting`));
        assert.doesNotMatch(e.message, /pw/, 'no credentials in the message');
        return true;
      });
      await t.close();
    });
  });

  it('certificates: a self-signed service fails by default, passes with its certificate trusted, or with http.proxyStrictSSL off', async () => {
    const dir = path.join(__dirname, '..', 'fixtures', 'tls');
    const cert = fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8');
    const srv = https.createServer({ cert, key: fs.readFileSync(path.join(dir, 'key.pem')) }, (_q, r) => r.end('ok'));
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const url = `https://127.0.0.1:${(srv.address() as AddressInfo).port}/`;
    const ts = [createTransport(), createTransport({ extraCertificates: () => [cert] }), createTransport({ strictSSL: false })];
    try {
      await assert.rejects(ts[0]!.send({ method: 'GET', url, headers: {} }), (e: unknown) => e instanceof NetworkError && /SELF_SIGNED|CERT/.test(e.message));
      assert.equal((await ts[1]!.send({ method: 'GET', url, headers: {} })).text, 'ok');
      assert.equal((await ts[2]!.send({ method: 'GET', url, headers: {} })).text, 'ok');
    } finally {
      for (const t of ts) await t.close();
      srv.closeAllConnections();
      srv.close();
    }
  });

  it('system certificates: Node\'s own store when it has one, else the Linux bundle files', () => {
    const pem = (n: number) => `-----BEGIN CERTIFICATE-----\nAAA${n}\n-----END CERTIFICATE-----`;
    assert.deepEqual(systemCertificates(() => undefined, () => [pem(1)]), [pem(1)]);
    const files: Record<string, string> = { '/etc/pki/tls/certs/ca-bundle.crt': `junk\n${pem(2)}\n${pem(3)}\n` };
    assert.deepEqual(systemCertificates((f) => files[f], undefined), [pem(2), pem(3)]);
    assert.deepEqual(systemCertificates(() => undefined, undefined), []);
  });

  it('a refused connection is a NetworkError naming the cause', async () => {
    const srv = net.createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const port = (srv.address() as AddressInfo).port;
    await new Promise<void>((r) => srv.close(() => r()));
    const t = createTransport();
    await assert.rejects(t.send({ method: 'GET', url: `http://127.0.0.1:${port}/v1/me`, headers: {} }), (e: unknown) => e instanceof NetworkError && /ECONNREFUSED/.test(e.message));
    await t.close();
  });

  it('beforeConnect is asked before each new loopback connection; its refusal connects nothing and is never sent (#37)', async () => {
    let connections = 0;
    const srv = http.createServer((_req, res) => res.end('ok'));
    srv.on('connection', () => { connections++; });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v1/me`;
    let asked = 0;
    const allowing = createTransport({ beforeConnect: () => { asked++; return undefined; } });
    const refusing = createTransport({ beforeConnect: () => Object.assign(new Error('the local sandbox has ended'), { code: REFUSED_BEFORE_CONNECT }) });
    try {
      assert.equal((await allowing.send({ method: 'GET', url, headers: {} })).text, 'ok');
      assert.equal((await allowing.send({ method: 'GET', url, headers: {} })).text, 'ok');
      assert.ok(asked >= 1);
      assert.equal(asked, connections, 'asked once for each connection made');
      const before = connections;
      await assert.rejects(refusing.send({ method: 'GET', url, headers: {} }), (e: unknown) =>
        e instanceof NetworkError && !e.mayHaveArrived && /the local sandbox has ended/.test(e.message));
      assert.equal(connections, before, 'the refusal made no connection');
    } finally {
      await allowing.close();
      await refusing.close();
      await new Promise<void>((r) => srv.close(() => r()));
    }
  });
});

describe('api http: a response body is read up to a cap', () => {
  /** A server whose body is `size` bytes of JSON-ish text, sent in chunks; records how it ended. */
  async function bigServer(size: number, o: { declareLength: boolean }) {
    const seen = { written: 0, finished: false, closedEarly: false };
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', ...(o.declareLength ? { 'content-length': String(size) } : {}) });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      res.on('close', () => { if (!res.writableFinished) seen.closedEarly = true; });
      const pump = () => {
        while (seen.written < size) {
          const n = Math.min(chunk.length, size - seen.written);
          seen.written += n;
          if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void res.once('drain', pump);
        }
        res.end(() => { seen.finished = true; });
      };
      pump();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/cards`;
    return { url, seen, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
  }

  for (const declareLength of [false, true]) {
    it(`over ${MAX_RESPONSE_BYTES} bytes (${declareLength ? 'declared' : 'chunked'}): a clear error, the connection aborted, nothing parsed`, async () => {
      const size = 64 * MAX_RESPONSE_BYTES;
      const s = await bigServer(size, { declareLength });
      const transport = createTransport();
      try {
        await assert.rejects(transport.send({ method: 'GET', url: s.url, headers: {} }), (e: unknown) => {
          assert.ok(e instanceof MalformedResponseError, String(e));
          assert.equal(e.reason, 'too-large');
          assert.match(e.message, /too-large/);
          assert.ok(e.message.includes(s.url));
          return true;
        });
        await until('the server to see its response end (aborted or finished)', () => s.seen.closedEarly || s.seen.finished, 5_000, 5);
        assert.equal(s.seen.finished, false, 'the client did not read the whole body');
        assert.ok(s.seen.closedEarly, 'the connection was aborted');
      } finally {
        await transport.close();
        await s.close();
      }
    });
  }

  it('a body at the cap is read whole', async () => {
    const s = await bigServer(MAX_RESPONSE_BYTES, { declareLength: false });
    const transport = createTransport();
    try {
      const res = await transport.send({ method: 'GET', url: s.url, headers: {} });
      assert.equal(Buffer.byteLength(res.text), MAX_RESPONSE_BYTES);
    } finally {
      await transport.close();
      await s.close();
    }
  });
});
