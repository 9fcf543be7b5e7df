// Links from card and notice text to an address on "this computer". In a remote window (SSH,
// WSL, code-server) VS Code's openExternal forwards such a port of the remote into the local
// browser, so a webhook's http://localhost:22/ would reach the remote's SSH port; on a desktop
// it reaches the person's own local services. Such a link opens at once only when it is on the
// service's own origin (the sandbox's card pages are); any other local address, even while the
// service is on loopback, is confirmed by the person first (#37).
// Pure: no `vscode`, tested in plain Node.

/** 127.0.0.0/8, 0.0.0.0, ::1, ::, IPv4-mapped loopback, localhost and *.localhost (browsers resolve those locally). */
export function isLocalAddress(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '0.0.0.0') return true;
  if (h === '[::1]' || h === '[::]') return true;
  // WHATWG URLs write ::ffff:127.0.0.1 as [::ffff:7f00:1]
  return /^\[::ffff:(7f[0-9a-f]{2}:[0-9a-f]{1,4}|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|0:0)\]$/.test(h);
}

function parsed(url: string | undefined): URL | undefined {
  if (!url) return undefined;
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/**
 * `open`: open it. `confirm`: ask the person first, showing the whole address. `url` is an http(s)
 * address already checked by safeExternalUrl; `serviceUrl` the service address in use (if any).
 */
export function linkDecision(url: string, serviceUrl: string | undefined): 'open' | 'confirm' {
  const target = parsed(url);
  if (target === undefined) return 'confirm';
  if (!isLocalAddress(target.hostname)) return 'open';
  const service = parsed(serviceUrl);
  return service !== undefined && service.origin === target.origin ? 'open' : 'confirm';
}
