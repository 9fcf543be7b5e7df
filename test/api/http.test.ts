import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Agent, EnvHttpProxyAgent, ProxyAgent } from 'undici';
import { MalformedResponseError, NetworkError } from '../../src/api/errors';
import { createDispatcher, createTransport, MAX_RESPONSE_BYTES } from '../../src/api/http';

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
  it('a keep-alive Agent without proxy settings, EnvHttpProxyAgent with them, ProxyAgent for an explicit proxy', () => {
    const none = { HTTP_PROXY: undefined, HTTPS_PROXY: undefined, http_proxy: undefined, https_proxy: undefined };
    withEnv(none, () => assert.ok(createDispatcher() instanceof Agent));
    withEnv({ ...none, HTTPS_PROXY: 'http://proxy.local:3128' }, () => assert.ok(createDispatcher() instanceof EnvHttpProxyAgent));
    assert.ok(createDispatcher({ proxyUrl: 'http://proxy.local:3128' }) instanceof ProxyAgent);
  });

  it('refuses a response timeout that would cut the 25 s long-poll', () => {
    assert.throws(() => createDispatcher({ headersTimeoutMs: 20_000 }), RangeError);
  });

  it('an explicit proxy carries the requests (CONNECT through it)', async () => {
    const target = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const tunnels: string[] = [];
    const proxy = http.createServer();
    proxy.on('connect', (req, socket, head) => {
      tunnels.push(req.url ?? '');
      const [host, port] = (req.url ?? '').split(':');
      const up = net.connect(Number(port), host!, () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        up.write(head);
        up.pipe(socket);
        socket.pipe(up);
      });
      up.on('error', () => socket.destroy());
      socket.on('error', () => up.destroy());
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    const t = createTransport({ proxyUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` });
    try {
      const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/v1/me`;
      const res = await t.send({ method: 'GET', url, headers: {} });
      assert.equal(res.status, 200);
      assert.equal(res.text, '{"ok":true}');
      assert.deepEqual(tunnels, [`127.0.0.1:${(target.address() as AddressInfo).port}`]);
    } finally {
      await t.close();
      proxy.closeAllConnections();
      target.closeAllConnections();
      proxy.close();
      target.close();
    }
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
        for (let i = 0; i < 500 && !s.seen.closedEarly && !s.seen.finished; i++) await new Promise((r) => setTimeout(r, 5));
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
