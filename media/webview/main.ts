// The card panel's script (bundled to dist/webview.js): wiring only. The host's messages and the
// person's input go through `reduce` (state.ts); presses become messages (actions.ts); the view
// (view.ts) is rendered by lit-html. It never talks to the service.
import { render } from 'lit-html';
import { bundleTranslator, setLocale, setTranslator } from '../../src/shared/l10n';
import { AnswerKeyGuard, ANSWER_KEYS_QUIET_MS, isHeldPress, pressAllowed, UNASKED_CLICKS_QUIET_MS } from '../../src/shared/key-guard';
import type { FromWebview, Notice, Request, ToWebview } from '../../src/shared/protocol';
import * as act from './actions';
import { announcement, holdLeft, nextReadyAt, reduce, initialState, waitsOnYou, type PanelEvent, type PanelState } from './state';
import { view, type ViewHooks } from './view';

interface VsCodeApi {
  postMessage(m: FromWebview): void;
  getState(): unknown;
  setState(s: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const root = document.getElementById('root')!;
const liveRegion = document.getElementById('live')!;
const cardId = document.body.dataset.cardId ?? '';
const post = (m: Notice) => vscode.postMessage(m);

/** A message that gets a reply: it goes with a fresh id, and the state remembers what that id asked. */
let lastRequest = 0;
function request(m: Request): void {
  const requestId = `r${++lastRequest}`;
  dispatch({ type: 'requested', requestId, what: m.type });
  vscode.postMessage({ ...m, requestId });
}

let state: PanelState = initialState(cardId, vscode.getState(), Intl.DateTimeFormat().resolvedOptions().timeZone);
// The panel's card id in its state from the start, so a window reload restores this panel
// (the serializer reads it), drafted or not.
vscode.setState({ cardId, draft: state.draft });

// Keys that pick or answer wait a moment after a card (or a new version) shows and after the
// panel gets focus: keys typed for the editor a moment ago are not the person's answer. The body
// says which (`data-keys="quiet"` or `"ready"`), for people's tools and for tests to wait on.
const keyGuard = new AnswerKeyGuard();
let quietTimer: ReturnType<typeof setTimeout> | undefined;
function armKeys(): void {
  keyGuard.arm();
  document.body.dataset.keys = 'quiet';
  clearTimeout(quietTimer);
  quietTimer = setTimeout(function ready() {
    if (keyGuard.allows()) document.body.dataset.keys = 'ready';
    else quietTimer = setTimeout(ready, 50);
  }, ANSWER_KEYS_QUIET_MS);
}
window.addEventListener('focus', armKeys);

// A panel the person did not open (a card link, another extension) appeared under their pointer:
// for a moment a click lands on nothing (`data-clicks="quiet"`, then `"ready"`; absent until then).
const clickGuard = new AnswerKeyGuard(() => Date.now(), UNASKED_CLICKS_QUIET_MS);
let clickTimer: ReturnType<typeof setTimeout> | undefined;
function armClicks(): void {
  clickGuard.arm();
  document.body.dataset.clicks = 'quiet';
  clearTimeout(clickTimer);
  clickTimer = setTimeout(function ready() {
    if (clickGuard.allows()) document.body.dataset.clicks = 'ready';
    else clickTimer = setTimeout(ready, 50);
  }, UNASKED_CLICKS_QUIET_MS);
}
document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') armKeys(); });

let draftTimer: ReturnType<typeof setTimeout> | undefined;
function saveDraft(): void {
  vscode.setState({ cardId, draft: state.draft });
  clearTimeout(draftTimer);
  draftTimer = setTimeout(() => { draftTimer = undefined; post({ type: 'draft', draft: state.draft }); }, 300);
}

function dispatch(e: PanelEvent): void {
  const prev = state;
  state = reduce(prev, e, Date.now());
  // Something new to read: answering keys wait again.
  if (e.type === 'card' && (!prev.card || prev.shownVersion !== state.shownVersion || prev.card.version !== e.card.version)) armKeys();
  if (e.type === 'words') { document.documentElement.lang = e.locale; }
  if (state.draft !== prev.draft) saveDraft();
  // Name the helper of a handed-over card, or of a proposal.
  const asked = Object.values(state.pending).includes('loadAssistants');
  if (e.type === 'card' && (e.card.status === 'delegated' || e.card.proposal) && !state.assistants && !asked && state.allowed.assistants) request({ type: 'loadAssistants' });
  show();
}

function send(r: act.PanelPress): void {
  if (!r) return;
  if ('refuse' in r) dispatch({ type: 'refused', problem: r.refuse });
  else request(r.post);
}

const hooks: ViewHooks = {
  input: dispatch,
  press: (e, what, guarded = false) => {
    // A keyboard activation of a focused button (detail 0) waits out the quiet moment; a click
    // counts, unless the panel just appeared without the person opening it.
    if (!pressAllowed(e as MouseEvent, guarded, keyGuard, clickGuard)) { e.preventDefault(); return; }
    send(what(state));
  },
  post,
  request,
  // A keyboard activation of the focused button (detail 0) waits like N; a click counts.
  next: (e) => { if (!clickGuard.allows() || !openNext((e as MouseEvent).detail === 0)) e.preventDefault(); },
};

/**
 * N or the Next button: the next card, in this panel. A key waits out the key guard's moment
 * (the card showed, the panel got focus) and the step's own (actions.openNext); a click counts.
 * False when a key came too soon.
 */
function openNext(byKey: boolean): boolean {
  if (byKey && !keyGuard.allows()) return false;
  const m = act.openNext(state, Date.now(), byKey);
  if (m) post(m);
  return true;
}

/** Renders the state; the countdown re-renders itself four times a second while the hold lasts. */
let tickTimer: ReturnType<typeof setTimeout> | undefined;
let nextTimer: ReturnType<typeof setTimeout> | undefined;
function show(): void {
  render(view(state, hooks, Date.now()), root);
  // Whether N may open the next card yet (`data-next="quiet"|"ready"`, absent when no step shows),
  // for people's tools and for tests to wait on; turned ready when the moment is over.
  clearTimeout(nextTimer);
  const nextAt = nextReadyAt(state);
  if (nextAt === undefined) delete document.body.dataset.next;
  else if (Date.now() >= nextAt) document.body.dataset.next = 'ready';
  else {
    document.body.dataset.next = 'quiet';
    nextTimer = setTimeout(show, nextAt - Date.now() + 10);
  }
  // The one live region: its words change only when the status does.
  const said = announcement(state);
  if (liveRegion.textContent !== said) liveRegion.textContent = said;
  clearTimeout(tickTimer);
  if (state.undoUntil) {
    tickTimer = setTimeout(() => {
      if (holdLeft(state, Date.now()) <= 0) dispatch({ type: 'holdOver' }); else show();
    }, 250);
  }
}

window.addEventListener('message', (ev: MessageEvent<ToWebview>) => {
  const m = ev.data;
  if (!m || typeof m !== 'object') return;
  if (m.type === 'words') { setTranslator(bundleTranslator(m.bundle)); setLocale(m.locale); }
  if (m.type === 'guardClicks') { armClicks(); return; }
  dispatch(m);
});

/** Whether the key goes into a text box, a list or a text input (not a radio or checkbox). */
function isTyping(target: HTMLElement): boolean {
  return target.tagName === 'TEXTAREA' || target.tagName === 'SELECT'
    || (target.tagName === 'INPUT' && !['radio', 'checkbox'].includes((target as HTMLInputElement).type));
}

// A held key's repeats never act: stopped before anything (a focused button's own activation too).
document.addEventListener('keydown', (e) => {
  if (isHeldPress(e, isTyping(e.target as HTMLElement))) { e.preventDefault(); e.stopImmediatePropagation(); }
}, true);

document.addEventListener('keydown', (e) => {
  const target = e.target as HTMLElement;
  const typing = isTyping(target);
  // Esc while an input method composes cancels the composition, not the panel.
  if (e.key === 'Escape' && !e.isComposing) {
    // The draft first: the last 300 ms of typing would be lost with the panel.
    if (draftTimer) { clearTimeout(draftTimer); draftTimer = undefined; post({ type: 'draft', draft: state.draft }); }
    post({ type: 'close' });
    return;
  }
  const c = state.card;
  if (!c) return;
  if (typing) {
    // Ctrl+Enter in a field answers with the form (not while an IME is composing).
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !e.isComposing && waitsOnYou(c) && c.kind !== 'approval' && c.kind !== 'update') {
      e.preventDefault();
      if (keyGuard.allows()) send(act.answerFromForm(state));
    }
    return;
  }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  // Too soon after the card showed or the panel got focus: no pick, no answer, no button press.
  if ((e.key === 'Enter' || e.key === ' ' || /^[1-9]$/.test(e.key)) && !keyGuard.allows()) { e.preventDefault(); return; }
  if (/^[1-9]$/.test(e.key)) {
    const o = act.optionForKey(state, e.key);
    if (o) { e.preventDefault(); dispatch({ type: 'pick', optionId: o.id, multi: !!c.multi }); }
    return;
  }
  if (e.key === 'Enter' && target.tagName !== 'BUTTON' && target.tagName !== 'A' && waitsOnYou(c)) {
    e.preventDefault();
    send(act.enter(state));
    return;
  }
  if (e.key === 'u' || e.key === 'U') { e.preventDefault(); send(act.undo(state)); return; }
  // N: the next card, in this panel; not in the moment after the card showed, the panel got focus or the step appeared.
  if (e.key === 'n' || e.key === 'N') { e.preventDefault(); openNext(true); return; }
  if (e.key === 'l' || e.key === 'L') {
    e.preventDefault();
    root.querySelector<HTMLElement>('[data-key="later-1h"]')?.focus();
  }
});

armKeys();
// lit-html renders next to what is there: the shell's "Loading" goes first.
root.replaceChildren();
show();
post({ type: 'ready' });
