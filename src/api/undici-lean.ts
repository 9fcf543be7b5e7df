// The parts of undici the client core uses, loaded by file instead of through undici's index.
// The index also loads fetch, WebSocket, EventSource, the cache stores, the mock agents and
// the interceptors, which would triple the extension bundle (DESIGN goal: under 400 KB).
// These are the same files the index re-exports, so behaviour and types are undici's own.
import Agent from 'undici/lib/dispatcher/agent';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent';
import ProxyAgent from 'undici/lib/dispatcher/proxy-agent';
import Dispatcher from 'undici/lib/dispatcher/dispatcher';
import apiConnect from 'undici/lib/api/api-connect';
import apiRequest from 'undici/lib/api/api-request';
import { parseURL } from 'undici/lib/core/util';
import buildConnector from 'undici/lib/core/connect';
import type { Dispatcher as DispatcherTypes } from 'undici';

// undici's index puts its five API methods on Dispatcher.prototype on load. The extension uses
// two of them: `request` (below) and `connect`, with which ProxyAgent opens its tunnel.
// (stream, pipeline and upgrade are left out: nothing here calls them.)
Object.assign(Dispatcher.prototype, { request: apiRequest, connect: apiConnect });

export { Agent, EnvHttpProxyAgent, ProxyAgent, buildConnector };

export type RequestOptions = Omit<DispatcherTypes.RequestOptions, 'origin' | 'path'>;

/** undici's top-level `request(url, { dispatcher, ... })`, minus the global-dispatcher fallback. */
export function request(dispatcher: DispatcherTypes, url: string, opts: RequestOptions): Promise<DispatcherTypes.ResponseData> {
  const u = parseURL(url);
  return dispatcher.request({
    ...opts,
    origin: u.origin,
    path: u.search ? `${u.pathname}${u.search}` : u.pathname,
    method: opts.method || (opts.body ? 'PUT' : 'GET'),
  });
}
