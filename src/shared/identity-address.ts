// A sandbox-made identity file names the sandbox's address. When that sandbox is gone (stopped,
// crashed, killed), the address must not stay where the next start would use it: whoever binds the
// port later would receive the sign-in's tokens and the computer's attestation. The sandbox blanks
// it when it stops; the editor that started it blanks it too when the process exits however it
// ended (SIGKILL leaves the sandbox no chance). Pure: the caller reads and writes the file.

/**
 * The identity file's text with its address blanked, when it is still the one the gone sandbox
 * wrote (marked sandbox-made, naming `url`); undefined when the file is anything else (a real
 * service's identity, another run's, unreadable), which is left exactly as it is.
 */
export function withoutDeadAddress(text: string, url: string): string | undefined {
  let identity: unknown;
  try { identity = JSON.parse(text); } catch { return undefined; }
  if (typeof identity !== 'object' || identity === null || Array.isArray(identity)) return undefined;
  const o = identity as Record<string, unknown>;
  if (o.madeBy !== 'sandbox' || o.baseUrl !== url) return undefined;
  return `${JSON.stringify({ ...o, baseUrl: '' }, null, 2)}\n`;
}
