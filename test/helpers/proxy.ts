// A real HTTP proxy for tests (the npm package `proxy`, CONNECT tunnels and plain requests) on
// 127.0.0.1, port 0. `route` sends a tunnel for one address to another, so a test can give the
// client a service address that only the proxy reaches (nothing listens there directly): then
// every request that succeeds went through the proxy. Tests name the service by a made-up host
// (`cards.test`, which resolves nowhere): loopback addresses never go through a proxy.
import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import * as tls from 'node:tls';

export interface TestProxy {
  url: string;
  /** `host:port` of every tunnel asked for, in order (before any route). */
  tunnels: string[];
  /** Tunnels refused for missing or wrong credentials. */
  refused: number;
  close(): Promise<void>;
}

export async function startProxy(opts: { route?: Record<string, string>; credentials?: string } = {}): Promise<TestProxy> {
  const { createProxy } = await import('proxy');
  const server = http.createServer();
  const tunnels: string[] = [];
  const state = { refused: 0 };
  // Before the package's own listener: note the tunnel, then route it.
  server.prependListener('connect', (req: http.IncomingMessage) => {
    tunnels.push(req.url ?? '');
    const to = opts.route?.[req.url ?? ''];
    if (to) req.url = to;
  });
  const proxy = createProxy(server);
  if (opts.credentials) {
    const expected = `Basic ${Buffer.from(opts.credentials).toString('base64')}`;
    proxy.authenticate = (req) => {
      const ok = req.headers['proxy-authorization'] === expected;
      if (!ok) state.refused++;
      return ok;
    };
  }
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tunnels,
    get refused() { return state.refused; },
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

/** A loopback port with nothing listening on it (taken, then freed). */
export async function deadPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/**
 * A TLS front on 127.0.0.1, port 0: it takes TLS with `cert`/`key` (for a made-up name such as
 * `cards.test`) and pipes the plain bytes to 127.0.0.1:`to`. A proxy route to it lets an https
 * service address that only the proxy resolves reach a plain-HTTP sandbox.
 */
/** Pipes a client's bytes to 127.0.0.1:`port` and back; both ends are kept in `sockets` until they close. */
export function pipeToLoopback(client: net.Socket, port: number, sockets: Set<net.Socket>): void {
  const upstream = net.connect(port, '127.0.0.1');
  sockets.add(client);
  sockets.add(upstream);
  client.pipe(upstream).pipe(client);
  const end = () => { client.destroy(); upstream.destroy(); sockets.delete(client); sockets.delete(upstream); };
  client.on('error', end).on('close', end);
  upstream.on('error', end).on('close', end);
}

export async function startTlsFront(o: { cert: string; key: string; to: number }): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = tls.createServer({ cert: o.cert, key: o.key }, (client) => pipeToLoopback(client, o.to, sockets));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((r) => { for (const s of sockets) s.destroy(); server.close(() => r()); }),
  };
}
