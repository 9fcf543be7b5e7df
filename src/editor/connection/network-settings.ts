// VS Code's network settings, for the client's own HTTP agent (undici does not go through the
// editor's patched `http`/`https` modules or its global `fetch`): `http.proxy`, `http.noProxy`,
// `http.proxyAuthorization`, `http.proxyStrictSSL`, `http.systemCertificates`. With
// `http.proxySupport: off` the settings' proxy is not used and the environment decides, as VS Code
// itself does for extensions then. See docs/decisions.md, "Proxies and certificates".
import * as vscode from 'vscode';
import type { TransportOptions } from '../../api/http';
import { systemCertificates } from '../../api/system-certificates';

export function networkSettings(): TransportOptions {
  const http = vscode.workspace.getConfiguration('http');
  const support = http.get<string>('proxySupport', 'override');
  const url = support === 'off' ? '' : (http.get<string>('proxy') ?? '').trim();
  const noProxy = (http.get<string[]>('noProxy') ?? []).filter((h) => typeof h === 'string' && h.trim()).map((h) => h.trim());
  const authorization = http.get<string | null>('proxyAuthorization') ?? undefined;
  return {
    ...(url ? { proxy: { url, noProxy, ...(authorization ? { authorization } : {}) } } : {}),
    strictSSL: http.get<boolean>('proxyStrictSSL', true),
    ...(http.get<boolean>('systemCertificates', true) ? { extraCertificates: systemCertificates } : {}),
  };
}

/** What the rebuild compares: a change here makes a new client with the new agent. */
export function networkKey(o: TransportOptions): string {
  return JSON.stringify({ proxy: o.proxy, strictSSL: o.strictSSL, system: Boolean(o.extraCertificates) });
}

export function affectsNetwork(e: vscode.ConfigurationChangeEvent): boolean {
  return ['http.proxy', 'http.noProxy', 'http.proxyAuthorization', 'http.proxyStrictSSL', 'http.systemCertificates', 'http.proxySupport']
    .some((s) => e.affectsConfiguration(s));
}
