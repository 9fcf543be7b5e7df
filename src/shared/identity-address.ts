// A sandbox-made identity file names the sandbox's address. When that sandbox is gone (stopped,
// crashed, killed), the address must not stay where the next start would use it: whoever binds the
// port later would receive the sign-in's tokens and the computer's attestation. The sandbox blanks
// it when it stops; the editor that started it blanks it too when the process exits however it
// ended (SIGKILL leaves the sandbox no chance); and any window using the address blanks it when it
// finds the process the file names gone (#37). Pure: the caller reads and writes the file.

/** The process serving a sandbox-made file's address, as the sandbox wrote it (src/sandbox/machine-file.ts). */
export interface SandboxProcess { pid: number; host: string }

function sandboxMade(text: string, url: string): Record<string, unknown> | undefined {
  let identity: unknown;
  try { identity = JSON.parse(text); } catch { return undefined; }
  if (typeof identity !== 'object' || identity === null || Array.isArray(identity)) return undefined;
  const o = identity as Record<string, unknown>;
  return o.madeBy === 'sandbox' && typeof o.baseUrl === 'string' && o.baseUrl.replace(/\/+$/, '') === url ? o : undefined;
}

/**
 * The process a sandbox-made file names as serving `url` (its address, no trailing slash);
 * undefined for any other file (a real service's identity, another address, an older sandbox's
 * file without one).
 */
export function sandboxServing(text: string, url: string): SandboxProcess | undefined {
  const p = sandboxMade(text, url)?.sandbox as { pid?: unknown; host?: unknown } | undefined;
  if (typeof p !== 'object' || p === null) return undefined;
  return Number.isSafeInteger(p.pid) && (p.pid as number) > 0 && typeof p.host === 'string' ? { pid: p.pid as number, host: p.host } : undefined;
}

/**
 * The identity file's text with its address blanked, when it is still the one the gone sandbox
 * wrote (marked sandbox-made, naming `url`, and, when `pid` is given, that process); undefined
 * when the file is anything else (a real service's identity, another run's, unreadable), which is
 * left exactly as it is.
 */
export function withoutDeadAddress(text: string, url: string, pid?: number): string | undefined {
  const o = sandboxMade(text, url);
  if (!o) return undefined;
  if (pid !== undefined && sandboxServing(text, url)?.pid !== pid) return undefined;
  const { sandbox: _gone, ...rest } = o;
  return `${JSON.stringify({ ...rest, baseUrl: '' }, null, 2)}\n`;
}
