import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Agent, EnvHttpProxyAgent, ProxyAgent } from 'undici';
import { NetworkError } from '../../src/api/errors';
import { createDispatcher, createTransport } from '../../src/api/http';

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
