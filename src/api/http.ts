// The one HTTP path of the client core: undici with keep-alive, timeouts longer than the 25 s
// long-poll, and proxies from an explicit setting or the environment (HTTP(S)_PROXY, NO_PROXY).
import { Agent, EnvHttpProxyAgent, ProxyAgent, request } from './undici-lean';
import type { Dispatcher } from 'undici';
import { MalformedResponseError, NetworkError } from './errors';

export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export interface HttpResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  text: string;
}

export interface HttpTransport {
  send(req: HttpRequest): Promise<HttpResponse>;
  close(): Promise<void>;
}

export interface TransportOptions {
  /** An `http.proxy`-style setting; when absent the environment decides (EnvHttpProxyAgent). */
  proxyUrl?: string;
  /** Must stay above the 25 s long-poll; default 45 s. */
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** For tests: a dispatcher to use instead. */
  dispatcher?: Dispatcher;
}

export const LONG_POLL_SECONDS = 25;

/** The most the client reads of one response body; the largest real page is far below it. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

export function createDispatcher(opts: TransportOptions = {}): Dispatcher {
  if (opts.dispatcher) return opts.dispatcher;
  const common = {
    headersTimeout: opts.headersTimeoutMs ?? 45_000,
    bodyTimeout: opts.bodyTimeoutMs ?? 45_000,
    connect: { timeout: opts.connectTimeoutMs ?? 10_000 },
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 120_000,
  };
  if (opts.headersTimeoutMs !== undefined && opts.headersTimeoutMs <= LONG_POLL_SECONDS * 1000) {
    throw new RangeError('headersTimeoutMs must be longer than the 25 s long-poll');
  }
  if (opts.proxyUrl) return new ProxyAgent({ uri: opts.proxyUrl, ...common });
  const env = process.env;
  const hasProxy = env.HTTP_PROXY || env.http_proxy || env.HTTPS_PROXY || env.https_proxy;
  return hasProxy ? new EnvHttpProxyAgent(common) : new Agent(common);
}

export function createTransport(opts: TransportOptions = {}): HttpTransport {
  const dispatcher = createDispatcher(opts);
  const owned = !opts.dispatcher;
  return {
    async send(req) {
      let res: Dispatcher.ResponseData;
      try {
        res = await request(dispatcher, req.url, {
          method: req.method as Dispatcher.HttpMethod,
          headers: req.headers,
          body: req.body,
          signal: req.signal,
        });
      } catch (e) {
        if (req.signal?.aborted) throw e;
        throw new NetworkError(req.url, describe(e));
      }
      let text: string;
      try {
        text = await readCapped(res, req.url);
      } catch (e) {
        if (req.signal?.aborted || e instanceof MalformedResponseError) throw e;
        throw new NetworkError(req.url, describe(e));
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) {
        if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      }
      return { status: res.statusCode, headers, text };
    },
    async close() {
      if (owned) await dispatcher.close();
    },
  };
}

/**
 * The body as text, at most MAX_RESPONSE_BYTES: a hostile or broken service cannot fill memory.
 * Over the cap the body is destroyed (the connection is aborted) and nothing is parsed.
 */
async function readCapped(res: Dispatcher.ResponseData, url: string): Promise<string> {
  const tooLarge = () => {
    res.body.destroy();
    return new MalformedResponseError('too-large', res.statusCode, url, `the body is over ${MAX_RESPONSE_BYTES} bytes`);
  };
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_RESPONSE_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > MAX_RESPONSE_BYTES) throw tooLarge();
    chunks.push(b);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

function describe(e: unknown): string {
  const err = e as { code?: string; message?: string; cause?: { code?: string } };
  return err.code ?? err.cause?.code ?? err.message ?? 'network error';
}
