// Polls a probe until it gives a value (anything but undefined or false) or the time is up; the
// last error the probe threw is named in the timeout. Shared by the plain-Node script tests and
// the extension-host suites (both bundle or load it as plain TypeScript, no vscode import).
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
  ms = 60_000,
  everyMs = 100,
): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  while (Date.now() < end) {
    try {
      const v = await probe();
      if (v !== undefined && v !== false) return v;
    } catch (e) { last = e; }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}
