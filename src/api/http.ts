// The one HTTP path of the client core: undici with keep-alive, timeouts longer than the 25 s
// long-poll, the editor's network settings (proxy, no-proxy hosts, proxy authorization, strict
// certificates, system certificates) or else the environment (HTTP(S)_PROXY, NO_PROXY).
// Loopback addresses (127.0.0.0/8, ::1, localhost) are always reached directly, never by a proxy.
// undici is loaded at the first request, not when the extension loads: it is most of the bundle,
// and activation must stay fast (docs/decisions.md, "Bundle size").
import * as tls from 'node:tls';
import type { Dispatcher } from 'undici';
import type * as UndiciLean from './undici-lean';
import { MalformedResponseError, NetworkError } from './errors';
import { isLoopbackHost } from './service-address';

let undiciLean: typeof UndiciLean | undefined;
function undici(): typeof UndiciLean {
  // A plain require so the bundler can leave undici in its own file (esbuild.mjs, "net-undici").
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, see above
  undiciLean ??= require('./undici-lean') as typeof UndiciLean;
  return undiciLean;
}

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

/** VS Code's `http.*` settings, as the editor read them. */
export interface ProxySettings {
  /** `http.proxy`: every request goes through it. Absent: the environment decides. */
  url: string;
  /** `http.noProxy`: hosts (`host`, `host:port`, `.domain`) reached without the proxy. */
  noProxy?: readonly string[];
  /** `http.proxyAuthorization`: the Proxy-Authorization header value sent to the proxy. */
  authorization?: string;
}

export interface TransportOptions {
  /** The proxy from the editor's settings; when absent the environment decides (EnvHttpProxyAgent). */
  proxy?: ProxySettings;
  /** `http.proxyStrictSSL`: false accepts certificates that do not verify. Default true. */
  strictSSL?: boolean;
  /** More certificates to trust (PEM), e.g. the system's (`http.systemCertificates`); read on first use. */
  extraCertificates?: () => readonly string[];
  /** Must stay above the 25 s long-poll; default 45 s. */
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** For tests: a dispatcher to use instead. */
  dispatcher?: Dispatcher;
  /**
   * Asked right before each new connection to a loopback address; an error it returns refuses
   * the connection, nothing sent. A request queued on a connection that dropped is sent again on
   * a new one: this is where a local sandbox found gone stops even that (src/editor/connection/sandbox-alive.ts).
   */
  beforeConnect?: () => Error | undefined;
}

export const LONG_POLL_SECONDS = 25;

/** The most the client reads of one response body; the largest real page is far below it. */
export const MAX_RESPONSE_BYTES = 1024 * 1024;

/** The proxy a request goes through: the setting's, else the environment's (for messages). */
function proxyInUse(opts: TransportOptions): string | undefined {
  const env = process.env;
  return opts.proxy?.url || env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy || undefined;
}

function checkOptions(opts: TransportOptions): void {
  if (opts.headersTimeoutMs !== undefined && opts.headersTimeoutMs <= LONG_POLL_SECONDS * 1000) {
    throw new RangeError('headersTimeoutMs must be longer than the 25 s long-poll');
  }
}

/** Agent options shared by the direct and the proxied dispatchers. */
function agentOptions(opts: TransportOptions) {
  const extra = opts.extraCertificates?.() ?? [];
  const verify = {
    rejectUnauthorized: opts.strictSSL !== false,
    // `ca` replaces Node's own list, so the extra ones are added to it.
    ...(extra.length ? { ca: [...tls.rootCertificates, ...extra] } : {}),
  };
  const common = {
    headersTimeout: opts.headersTimeoutMs ?? 45_000,
    bodyTimeout: opts.bodyTimeoutMs ?? 45_000,
    connect: { timeout: opts.connectTimeoutMs ?? 10_000, ...verify },
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 120_000,
  };
  return { verify, common };
}

/** The dispatcher for addresses that are not loopback: the proxy of the settings or the environment, else direct. */
export function createDispatcher(opts: TransportOptions = {}): Dispatcher {
  if (opts.dispatcher) return opts.dispatcher;
  checkOptions(opts);
  const { verify, common } = agentOptions(opts);
  const { Agent, EnvHttpProxyAgent } = undici();
  if (opts.proxy?.url) {
    // EnvHttpProxyAgent with explicit values: the setting's proxy for both schemes, and its
    // no-proxy hosts (the environment's NO_PROXY is not mixed in).
    return new EnvHttpProxyAgent({
      ...common,
      httpProxy: opts.proxy.url,
      httpsProxy: opts.proxy.url,
      noProxy: (opts.proxy.noProxy ?? []).join(','),
      ...(opts.proxy.authorization ? { token: opts.proxy.authorization } : {}),
      requestTls: verify,
      proxyTls: verify,
    });
  }
  return proxyInUse(opts) ? new EnvHttpProxyAgent({ ...common, requestTls: verify, proxyTls: verify }) : new Agent(common);
}

/**
 * True when `url` is on this computer (127.0.0.0/8, ::1, localhost): such requests never go
 * through a proxy (the usual NO_PROXY default). A proxy would see the sandbox's tokens in plain
 * HTTP, or get a loopback tunnel to a real service routed elsewhere.
 */
export function bypassesProxy(url: string): boolean {
  try {
    return isLoopbackHost(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** The loopback agent's options: `beforeConnect` asked before undici's own connector. */
function directOptions(opts: TransportOptions) {
  const { common } = agentOptions(opts);
  const check = opts.beforeConnect;
  if (!check) return common;
  const connector = undici().buildConnector(common.connect);
  const connect: typeof connector = (o, callback) => {
    const refused = check();
    if (refused) callback(refused, null);
    else connector(o, callback);
  };
  return { ...common, connect };
}

export function createTransport(opts: TransportOptions = {}): HttpTransport {
  checkOptions(opts);
  // Made at the first request (see undici() above): one through the proxy (if any), one direct for loopback.
  let proxied: Dispatcher | undefined;
  let direct: Dispatcher | undefined;
  const owned = !opts.dispatcher;
  const proxy = proxyInUse(opts);
  const dispatcherFor = (url: string): Dispatcher => {
    if (opts.dispatcher) return opts.dispatcher;
    if (!bypassesProxy(url)) return (proxied ??= createDispatcher(opts));
    direct ??= new (undici().Agent)(directOptions(opts));
    return direct;
  };
  return {
    async send(req) {
      let res: Dispatcher.ResponseData;
      try {
        res = await undici().request(dispatcherFor(req.url), req.url, {
          method: req.method as Dispatcher.HttpMethod,
          headers: req.headers,
          body: req.body,
          signal: req.signal,
        });
      } catch (e) {
        if (req.signal?.aborted) throw e;
        throw new NetworkError(req.url, describe(e, bypassesProxy(req.url) ? undefined : proxy), !neverSent(e));
      }
      let text: string;
      try {
        text = await readCapped(res, req.url);
      } catch (e) {
        if (req.signal?.aborted || e instanceof MalformedResponseError) throw e;
        // The answer had begun: the service did the work.
        throw new NetworkError(req.url, describe(e), true);
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) {
        if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      }
      return { status: res.statusCode, headers, text };
    },
    async close() {
      if (!owned) return;
      await Promise.all([proxied?.close(), direct?.close()]);
    },
  };
}

interface SocketError { code?: string; message?: string; address?: string; hostname?: string; port?: number; cause?: SocketError }

/** The code of an error `beforeConnect` returns: no connection was made. */
export const REFUSED_BEFORE_CONNECT = 'ERR_REFUSED_BEFORE_CONNECT';

/** Failures before any byte of the request left: no connection (or no tunnel) was made. */
const BEFORE_SENDING = new Set([
  'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ENETDOWN', 'EHOSTDOWN',
  'UND_ERR_CONNECT_TIMEOUT', 'ERR_TLS_CERT_ALTNAME_INVALID', 'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'ERR_INVALID_URL',
  REFUSED_BEFORE_CONNECT,
]);

/**
 * True only when the request surely never reached the service. Anything else (a reset, a closed
 * socket, a timeout waiting for headers, an unknown cause) may have come after the service did the work.
 */
export function neverSent(e: unknown): boolean {
  const err = e as SocketError;
  const code = err.code ?? err.cause?.code;
  if (code !== undefined && BEFORE_SENDING.has(code)) return true;
  // The proxy refused the tunnel (CONNECT answered non-2xx): nothing went to the service.
  return /Proxy response \(\d+\)/.test(err.message ?? '');
}

/**
 * The cause, in words the person can act on. A failure at the proxy names the proxy (without
 * credentials) and the setting to check; the service's own failures keep their code.
 */
export function describe(e: unknown, proxy?: string): string {
  const err = e as SocketError;
  const code = err.code ?? err.cause?.code;
  if (proxy) {
    const p = safeUrl(proxy);
    const refused = /Proxy response \((\d+)\)/.exec(err.message ?? '');
    if (refused) {
      return refused[1] === '407'
        ? `the proxy ${p.shown} asks for credentials (407); set http.proxyAuthorization, or put them in http.proxy`
        : `the proxy ${p.shown} refused to connect to the service (${refused[1]}); check http.proxy and http.noProxy`;
    }
    const at = err.address ?? err.hostname ?? err.cause?.address ?? err.cause?.hostname;
    const port = err.port ?? err.cause?.port;
    if (at !== undefined && (at === p.host || at === p.hostname) && (port === undefined || String(port) === p.port)) {
      return `the proxy ${p.shown} cannot be reached (${code ?? 'network error'}); check the http.proxy setting`;
    }
  }
  // A refusal made here says why in its own words.
  if (code === REFUSED_BEFORE_CONNECT) return err.message ?? code;
  return code ?? err.message ?? 'network error';
}

function safeUrl(raw: string): { shown: string; host: string; hostname: string; port: string } {
  try {
    const u = new URL(raw);
    const port = u.port || (u.protocol === 'https:' ? '443' : '80');
    const hostname = u.hostname.replace(/^\[|\]$/g, '');
    return { shown: `${u.protocol}//${u.host}`, host: u.host, hostname, port };
  } catch {
    return { shown: '(the proxy setting, which is not an address)', host: '', hostname: '', port: '' };
  }
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
