// Playwright, from inside a host test: the runner holds the browser and acts on the workbench page
// (or another tab) when asked over loopback. Only under code-server; `driverAvailable()` says so.
import { testEnv } from './env';

export interface Target {
  /** CSS/Playwright selector. */
  selector: string;
  /** iframe selectors to descend through first (webviews are nested iframes). */
  frames?: string[];
  /** A tab opened with `open`; default the workbench. */
  page?: string;
  timeout?: number;
}

export type Modifier = 'Alt' | 'Control' | 'ControlOrMeta' | 'Meta' | 'Shift';

export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  nodes: { target: string[]; html: string; failureSummary?: string }[];
}

export function driverAvailable(): boolean {
  return testEnv.driver !== undefined;
}

async function op<T>(body: Record<string, unknown>): Promise<T> {
  const url = testEnv.driver;
  if (!url) throw new Error('no Playwright bridge (not running under code-server)');
  const res = await fetch(`${url}/op`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  const out = (await res.json()) as T & { error?: string };
  if (!res.ok) throw new Error(`driver ${String(body.op)} failed: ${out.error ?? res.status}`);
  return out;
}

export const driver = {
  /** Saves artifacts/<name>.png of the page, or of the first element matching `target`. */
  screenshot: (name: string, target?: Partial<Target>) => op<{ path: string }>({ op: 'screenshot', name, ...target }),
  /**
   * `modifiers`: keys held through the click ('Control' for a terminal link); `force` skips the wait for a still element (a terminal row redraws);
   * `thenType`: typed the moment the click is done, in the runner (keys that arrive with the focus, however busy the machine).
   */
  click: (t: Target & { modifiers?: Modifier[]; force?: boolean; thenType?: string }) => op<{ ok: true }>({ op: 'click', ...t }),
  /** Moves the mouse over the element, `modifiers` held (a terminal link shows itself). */
  hover: (t: Target & { modifiers?: Modifier[]; force?: boolean }) => op<{ ok: true }>({ op: 'hover', ...t }),
  fill: (t: Target, value: string) => op<{ ok: true }>({ op: 'fill', value, ...t }),
  /** A key (Playwright names: 'Enter', 'Escape', 'Control+Shift+P'), on an element or the page. */
  press: (key: string, t?: Partial<Target>) => op<{ ok: true }>({ op: 'press', key, ...t }),
  /** A key held down for `ms` on the page's focus: its first keydown, then auto-repeats (`repeat: true`). */
  hold: (key: string, ms: number) => op<{ ok: true }>({ op: 'hold', key, ms }),
  /** Fires a DOM event on the element (`keydown` with `{ key: 'Escape', isComposing: true }`: an IME's Esc). */
  dispatch: (t: Target, event: string, init: Record<string, unknown>) => op<{ ok: true }>({ op: 'dispatch', event, init, ...t }),
  type: (value: string, page?: string) => op<{ ok: true }>({ op: 'type', value, page }),
  waitFor: (t: Target & { state?: 'visible' | 'hidden' | 'attached' | 'detached' }) => op<{ ok: true }>({ op: 'waitFor', ...t }),
  text: async (t: Target) => (await op<{ text: string }>({ op: 'text', ...t })).text,
  texts: async (t: Target) => (await op<{ texts: string[] }>({ op: 'texts', ...t })).texts,
  /** Where the keyboard is in the workbench: the focused element and its ancestors, and the quick input's state. */
  keyboardAt: () => op<{ chain: string[]; quickInput: { shown: boolean; inert: boolean; title: string } | null }>({ op: 'keyboardAt' }),
  /** The element with the keyboard in `t`'s document (its data-key, else id or tag) and its focus ring; key null when none. */
  focused: (t: Target) => op<{ key: string | null; outlineStyle?: string; outlineWidth?: string; outlineColor?: string }>({ op: 'focused', ...t }),
  /** Computed CSS properties (`border-top-color`, ...) of every element matching `t`, with its page's body background. */
  styles: async (t: Target, props: string[]) => (await op<{ styles: Record<string, string>[] }>({ op: 'styles', props, ...t })).styles,
  /** The value of an input, textarea or select. */
  value: async (t: Target) => (await op<{ value: string }>({ op: 'value', ...t })).value,
  /** axe-core on the page (or inside `frames`): the violations, with their impact. */
  axe: async (t: Partial<Target> = {}) => (await op<{ violations: AxeViolation[] }>({ op: 'axe', ...t })).violations,
  /**
   * The live regions of `t`'s document (aria-live, an implicitly live role, output) and every text
   * one came to hold since the first call (an observer it leaves in that document).
   */
  liveRegions: (t: Target) => op<{ regions: { id: string; role: string | null; live: string | null; text: string }[]; said: { region: string; text: string }[] }>({ op: 'liveRegions', ...t }),
  count: async (t: Target) => (await op<{ count: number }>({ op: 'count', ...t })).count,
  /** Words cut by their box, or lying over other words, inside the element `t` (the runner's `clipped`): none is `[]`. */
  clipped: async (t: Target) => (await op<{ clipped: string[] }>({ op: 'clipped', ...t })).clipped,
  /** Opens `url` in a new tab named `page` (for example the sandbox's approval page). */
  open: (page: string, url: string) => op<{ ok: true }>({ op: 'open', page, url }),
  close: (page: string) => op<{ ok: true }>({ op: 'close', page }),
  url: async (page?: string) => (await op<{ url: string }>({ op: 'url', page })).url,
  /** How many times a tab opened with `open` has loaded (1 at first, one more per reload). */
  loads: async (page: string) => (await op<{ loads: number }>({ op: 'loads', page })).loads,
  /** The address of every tab of the browser (a link the workbench opens is a new one). */
  tabs: async () => (await op<{ urls: string[] }>({ op: 'tabs' })).urls,
  /** Gives the page window focus, as a person clicking into the window would (or takes it away); says whether the page has it. */
  windowFocus: async (focused: boolean, page?: string) => (await op<{ focused: boolean }>({ op: 'windowFocus', value: focused, page })).focused,
};
