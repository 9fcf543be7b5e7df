// A real HTTP proxy for tests (the npm package `proxy`, CONNECT tunnels and plain requests) on
// 127.0.0.1, port 0. `route` sends a tunnel for one address to another, so a test can give the
// client a service address that only the proxy reaches (nothing listens there directly): then
// every request that succeeds went through the proxy.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

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
