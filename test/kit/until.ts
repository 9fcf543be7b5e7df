// The one wait of the tests: polls a probe (real time) until it gives a value (anything but
// undefined or false) and returns it; the timeout names what was awaited and the last error the
// probe threw. For states, never for time: a state that holds returns at once. No vscode import:
// the plain-Node tests and the extension-host suites both use it.

type Probe<T> = () => Promise<T | undefined | false> | T | undefined | false;

/**
 * `until('signed in', probe, ms, everyMs)`: a named wait (default 60 s, a poll every 100 ms).
 * `until(probe, ms)`: in-process state the test's own loopback work or lease files move, named
 * by the probe's source text and polled every 3 ms (it is cheap, and the next step waits on it).
 */
export async function until<T>(what: string, probe: Probe<T>, ms?: number, everyMs?: number): Promise<T>;
export async function until<T>(probe: Probe<T>, ms?: number): Promise<T>;
export async function until<T>(a: string | Probe<T>, b?: Probe<T> | number, c?: number, d?: number): Promise<T> {
  const named = typeof a === 'string';
  const what = named ? a : String(a);
  const probe = (named ? b : a) as Probe<T>;
  const ms = (named ? c : (b as number | undefined)) ?? 60_000;
  const everyMs = named ? (d ?? 100) : 3;
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

/**
 * `quietFor('no second status', 1_000)`: waits `ms` of real time. Only for an absence (nothing more
 * said, nothing more sent), which has no event to wait on; never for a state that comes (`until`).
 * The one fixed wait of the tests, named by what must not happen meanwhile.
 */
export async function quietFor(what: string, ms: number): Promise<void> {
  if (!what) throw new Error('quietFor needs the absence it waits out');
  await new Promise((r) => setTimeout(r, ms));
}
