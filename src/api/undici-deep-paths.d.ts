// Types for the undici files src/api/undici-lean.ts loads by path (undici ships no types for
// them; the classes are the ones its index re-exports, so the public types apply).
declare module 'undici/lib/dispatcher/agent' {
  import type { Agent } from 'undici';
  const AgentClass: typeof Agent;
  export = AgentClass;
}
declare module 'undici/lib/dispatcher/proxy-agent' {
  import type { ProxyAgent } from 'undici';
  const ProxyAgentClass: typeof ProxyAgent;
  export = ProxyAgentClass;
}
declare module 'undici/lib/dispatcher/env-http-proxy-agent' {
  import type { EnvHttpProxyAgent } from 'undici';
  const EnvHttpProxyAgentClass: typeof EnvHttpProxyAgent;
  export = EnvHttpProxyAgentClass;
}
declare module 'undici/lib/dispatcher/dispatcher' {
  import type { Dispatcher } from 'undici';
  const DispatcherClass: typeof Dispatcher;
  export = DispatcherClass;
}
declare module 'undici/lib/api/api-request' {
  const request: (...args: never[]) => unknown;
  export = request;
}
declare module 'undici/lib/api/api-connect' {
  const connect: (...args: never[]) => unknown;
  export = connect;
}
declare module 'undici/lib/core/util' {
  export function parseURL(url: string | URL): URL;
}
declare module 'undici/lib/core/connect' {
  import type { buildConnector } from 'undici';
  const build: typeof buildConnector;
  export = build;
}
