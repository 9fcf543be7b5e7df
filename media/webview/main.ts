// The card panel's script (bundled to dist/webview.js). It renders the card the host sends and
// reports presses back; it never talks to the service. Everything from the card is text.
import { bundleTranslator, setLocale, setTranslator, t } from '../../src/editor/shared/l10n';
import type { Card } from '../../src/api/schemas';
import { ago, dateTime, localDateTimeToIso, secondsLeft, seen } from '../../src/editor/shared/format';
import { historyLine } from '../../src/editor/shared/history-line';
import { AnswerKeyGuard } from '../../src/editor/shared/key-guard';
import type { AssistantChoice, Draft, FromWebview, ShownProblem, ToWebview } from '../../src/editor/shared/protocol';
import type { Child } from './dom';
import { clear, h } from './dom';

interface VsCodeApi {
  postMessage(m: FromWebview): void;
  getState(): unknown;
  setState(s: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const root = document.getElementById('root')!;
const cardId = document.body.dataset.cardId ?? '';

interface UiState {
  card?: Card;
  shownVersion: number;
  changedSinceAnswer: boolean;
  canAct: boolean;
  timeZone: string;
  undoUntil?: string;
  clockSkewMs: number;
  draft: Draft;
  assistants?: AssistantChoice[];
  busy?: string;
  notice?: string;
  /** What the person answered (or wrote), shown under the result as plain text. */
  answered?: string;
  sentWords: Record<string, string>;
  problem?: ShownProblem;
  gone?: string;
  showHandOver: boolean;
}

const saved = vscode.getState() as { cardId?: string; draft?: Draft } | undefined;
const ui: UiState = {
  shownVersion: -1,
  changedSinceAnswer: false,
  canAct: false,
  timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  clockSkewMs: 0,
  draft: saved?.cardId === cardId && saved.draft ? saved.draft : {},
  showHandOver: false,
  sentWords: {},
};
// The panel's card id in its state from the start, so a window reload restores this panel
// (the serializer reads it), drafted or not.
vscode.setState({ cardId, draft: ui.draft });

const post = (m: FromWebview) => vscode.postMessage(m);

// Keys that pick or answer wait a moment after a card (or a new version) shows and after the
// panel gets focus: keys typed for the editor a moment ago are not the person's answer.
const keyGuard = new AnswerKeyGuard();
window.addEventListener('focus', () => keyGuard.arm());
document.addEventListener('visibilitychange', () => { if (document.visibilityState === 'visible') keyGuard.arm(); });

/**
 * A button's click handler that ignores a keyboard activation (Enter or Space on the focused
 * button: `detail` 0) while answering keys wait. A mouse click always counts.
 */
const pressed = (act: () => void) => (e: Event) => {
  if ((e as MouseEvent).detail === 0 && !keyGuard.allows()) { e.preventDefault(); return; }
  act();
};
const now = () => Date.now() + ui.clockSkewMs;

let draftTimer: ReturnType<typeof setTimeout> | undefined;
function saveDraft(): void {
  vscode.setState({ cardId, draft: ui.draft });
  if (draftTimer) clearTimeout(draftTimer);
  draftTimer = setTimeout(() => post({ type: 'draft', draft: ui.draft }), 300);
}

window.addEventListener('message', (ev: MessageEvent<ToWebview>) => {
  const m = ev.data;
  if (!m || typeof m !== 'object') return;
  switch (m.type) {
    case 'words': {
      setTranslator(bundleTranslator(m.bundle));
      setLocale(m.locale);
      document.documentElement.lang = m.locale;
      render();
      break;
    }
    case 'card': {
      const newVersion = ui.card !== undefined && ui.shownVersion !== m.shownVersion;
      if (!ui.card || newVersion || ui.card.version !== m.card.version) keyGuard.arm();
      ui.card = m.card;
      ui.shownVersion = m.shownVersion;
      ui.changedSinceAnswer = m.changedSinceAnswer ?? (ui.changedSinceAnswer && !newVersion);
      ui.canAct = m.canAct;
      ui.timeZone = m.timeZone || ui.timeZone;
      ui.undoUntil = m.undoUntil;
      ui.clockSkewMs = m.nowMs - Date.now();
      if (m.draft && Object.keys(ui.draft).length === 0) ui.draft = m.draft;
      // Keep a selection only if its options still exist on the new version.
      const ids = new Set((m.card.options ?? []).map((o) => o.id));
      if (ui.draft.choiceIds) ui.draft.choiceIds = ui.draft.choiceIds.filter((id) => ids.has(id));
      ui.gone = undefined;
      ui.sentWords = m.sentWords ?? ui.sentWords;
      // Undone or taken back: the card asks again, so what was answered no longer stands.
      if (waitsOnYou(m.card) && m.card.turn === 'you' && ui.busy === undefined && newVersion) ui.answered = undefined;
      // Name the helper of a handed-over card.
      if (m.card.status === 'delegated' && !ui.assistants) post({ type: 'loadAssistants' });
      render();
      break;
    }
    case 'assistants': ui.assistants = m.assistants; render(); break;
    case 'busy': ui.busy = m.action; ui.problem = undefined; ui.notice = undefined; render(); break;
    case 'done':
      ui.busy = undefined; ui.notice = m.message; ui.problem = undefined; ui.changedSinceAnswer = false;
      ui.answered = m.answered;
      ui.shownVersion = m.version;
      if (m.undoUntil) { ui.undoUntil = m.undoUntil; ui.clockSkewMs = m.nowMs - Date.now(); }
      if (m.action === 'answer' || m.action === 'message') { ui.draft = {}; saveDraft(); }
      if (m.action === 'delegate') ui.showHandOver = false;
      render();
      break;
    case 'problem': ui.busy = undefined; ui.problem = m.problem; ui.notice = undefined; render(); break;
    case 'gone': ui.gone = m.message; render(); break;
  }
});

// ---------- rendering ----------

function render(): void {
  const active = document.activeElement as HTMLElement | null;
  const focusKey = active?.dataset.key;
  clear(root);
  if (ui.gone) { root.appendChild(h('p', { class: 'problem' }, ui.gone)); return; }
  const c = ui.card;
  if (!c) {
    // The first read failed: say so and what happens next (it is read again once back online).
    root.appendChild(ui.problem
      ? h('p', { class: 'problem', role: 'alert' }, `${ui.problem.message} ${ui.problem.next}`)
      : h('p', { class: 'muted' }, t('Loading the card…')));
    return;
  }
  root.append(
    header(c),
    statusArea(),
    ...(c.summary ? [h('p', { class: 'summary' }, c.summary)] : []),
    ...[proposal(c), body(c), laterSection(c), handOverSection(c), messageSection(c), history(c)]
      .filter((x): x is HTMLElement => x instanceof HTMLElement),
    h('footer', { class: 'keys muted' }, t('1–9 pick an option · Enter answers · U undo · L Later · Esc closes')),
  );
  if (focusKey) (root.querySelector(`[data-key="${CSS.escape(focusKey)}"]`) as HTMLElement | null)?.focus();
  tick();
}

const waitsOnYou = (c: Card) => c.status === 'pending' && c.turn === 'you';
const disabled = () => !ui.canAct || ui.busy !== undefined;

function header(c: Card): HTMLElement {
  const meta: string[] = [];
  if (c.assistant) meta.push(c.agent ? `${c.assistant.name} · ${c.agent.name}` : c.assistant.name);
  if (c.area) meta.push(c.area.name);
  if (c.machine) meta.push(c.machine.name);
  if (c.urgency) meta.push(c.urgency);
  if (c.createdAt) meta.push(`asked ${ago(c.createdAt, now())}`);
  return h('header', {},
    h('div', { class: 'badges' },
      h('span', { class: `badge kind kind-${safeClass(c.kind)}` }, kindLabel(c)),
      h('span', { class: 'badge state' }, stateLabel(c)),
      c.blocking ? h('span', { class: 'badge blocking' }, t('blocking')) : false,
      c.highStakes ? h('span', { class: 'badge stakes' }, t('high stakes')) : false,
    ),
    h('h1', { id: 'title' }, c.title),
    h('p', { class: 'meta muted' }, meta.join(' · '),
      c.assistant ? h('button', { class: 'link', key: 'go-terminal', title: t('Show the terminal where the asking assistant runs'), on: { click: () => post({ type: 'goToTerminal' }) } }, t('Go to terminal')) : false),
    c.highStakes ? h('div', { class: 'banner stakes', role: 'note' },
      h('span', {}, t('High stakes: this card spends money, cannot be undone or goes public, so it is answered only in the service. Every action here is off.')),
      c.url ? h('button', { class: 'primary', key: 'open-browser', on: { click: () => post({ type: 'openInBrowser' }) } }, t('Open in browser')) : false,
    ) : false,
    ui.changedSinceAnswer ? h('div', { class: 'banner changed', role: 'alert' },
      t('This card changed after you saw it (now version {0}). Nothing was sent. Read it again and answer.', c.version)) : false,
  );
}

function kindLabel(c: Card): string {
  switch (c.kind) {
    case 'choice': return c.multi ? t('choose several') : t('choose one');
    case 'approval': return t('approval');
    case 'text': return t('question');
    case 'questions': return t('questions');
    case 'failure': return t('failed step');
    case 'update': return c.severity ? t('notice · {0}', c.severity) : t('notice');
    default: return c.kind;
  }
}

function stateLabel(c: Card): string {
  if (c.status === 'pending') return c.turn === 'you' ? t('waiting on you') : t('waiting on the assistant');
  if (c.status === 'answered') return t('answered');
  if (c.status === 'snoozed') return t('in Later');
  if (c.status === 'delegated') return t('with a helper');
  if (c.status === 'done') return t('done');
  return c.status;
}

function statusArea(): HTMLElement {
  const el = h('section', { id: 'status', role: 'status', aria: { live: 'polite' } });
  if (ui.busy) el.appendChild(h('p', { class: 'muted' }, t('Sending…')));
  if (ui.notice) el.appendChild(h('p', { class: 'notice' }, ui.notice));
  if (ui.answered) el.appendChild(h('p', { class: 'answered', id: 'answered' }, ui.answered));
  const left = secondsLeft(ui.undoUntil, now());
  if (ui.undoUntil && left > 0) {
    // A hand-over is undone with Take back (below); an answer with Undo.
    const delegated = ui.card?.status === 'delegated';
    el.appendChild(h('div', { class: 'undo' },
      h('span', { id: 'countdown' }, countdownText(left)),
      delegated ? false : h('button', { key: 'undo', disabled: disabled(), on: { click: undo } }, t('Undo')),
    ));
  }
  // A conflict is already explained by the banner above the title.
  if (ui.problem && !(ui.changedSinceAnswer && (ui.problem.code === 'version_conflict' || ui.problem.code === 'area_change'))) {
    const p = ui.problem;
    el.appendChild(h('div', { class: 'problem', role: 'alert' },
      h('strong', {}, p.message), ' ', h('span', {}, p.next),
      p.url ? h('button', { key: 'problem-open', on: { click: () => post({ type: 'openInBrowser' }) } }, t('Open in browser')) : false,
    ));
  }
  return el;
}

const countdownText = (s: number) => (ui.card?.status === 'delegated'
  ? t('The helper can see it in {0} s.', s)
  : ui.card?.kind === 'update' ? t('Closes in {0} s.', s) : t('The assistant hears it in {0} s.', s));

/** Updates only the countdown text, once a quarter second, until the hold is over. */
let tickTimer: ReturnType<typeof setTimeout> | undefined;
function tick(): void {
  if (tickTimer) clearTimeout(tickTimer);
  if (!ui.undoUntil) return;
  const left = secondsLeft(ui.undoUntil, now());
  const el = document.getElementById('countdown');
  if (left <= 0) {
    ui.undoUntil = undefined;
    // A notice has no assistant: its Got it just closes it.
    ui.notice = ui.card?.status === 'delegated' ? t('The helper has it now.')
      : ui.card?.kind === 'update' ? t('Got it — closed.') : t('The assistant has heard your answer.');
    render();
    return;
  }
  if (el) el.textContent = countdownText(left);
  tickTimer = setTimeout(tick, 250);
}

function proposal(c: Card): Child {
  if (!c.proposal) return false;
  const rows = Object.entries(c.proposal).map(([k, v]) => h('li', {}, `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`));
  return h('section', { class: 'proposal' }, h('h2', {}, t('The helper proposes')), h('ul', {}, ...rows));
}

// ----- answering -----

function body(c: Card): Child {
  if (!waitsOnYou(c)) return false;
  if (c.kind === 'update') return updateBody(c);
  const parts: Child[] = [];
  switch (c.kind) {
    case 'choice': parts.push(optionsList(c, !!c.multi)); break;
    case 'approval': break;
    case 'text': parts.push(textArea('text', t('Your answer'), 4)); break;
    case 'questions': parts.push(...(c.asks ?? []).map((ask, i) => askBlock(ask, i))); break;
    case 'failure': parts.push(stepsList(c)); if (c.options?.length) parts.push(optionsList(c, false)); break;
    default:
      if (c.options?.length) parts.push(optionsList(c, !!c.multi));
      parts.push(textArea('text', t('Your answer'), 3));
  }
  parts.push(textArea('note', t('Note to the assistant (optional)'), 2));
  const actions: Child[] = c.kind === 'approval'
    ? [
        h('button', { class: 'primary', key: 'approve', disabled: disabled(), on: { click: pressed(() => answer({ approved: true })) } }, t('Approve')),
        h('button', { key: 'decline', disabled: disabled(), on: { click: pressed(() => answer({ approved: false })) } }, t('Decline')),
      ]
    : [h('button', { class: 'primary', id: 'answer', key: 'answer', disabled: disabled() || !canAnswer(c), on: { click: pressed(() => answerFromForm(c)) } }, t('Answer'))];
  actions.push(h('button', { key: 'theyDecide', disabled: disabled(), title: t('Hand the decision back to the assistant'), on: { click: pressed(() => answer({ theyDecide: true })) } }, t('You decide')));
  parts.push(h('div', { class: 'actions' }, ...actions));
  return h('section', { class: 'answer' }, ...parts);
}

function optionsList(c: Card, multi: boolean): HTMLElement {
  const rec = new Set(c.recommendedIds ?? []);
  const chosen = new Set(ui.draft.choiceIds ?? []);
  const list = h('div', { class: 'options', role: multi ? 'group' : 'radiogroup', aria: { label: t('Options') } });
  (c.options ?? []).forEach((o, i) => {
    const id = `opt-${i}`;
    const input = h('input', {
      type: multi ? 'checkbox' : 'radio', name: 'option', id, key: id, checked: chosen.has(o.id), disabled: disabled(),
      on: { change: () => pick(o.id, multi) },
    });
    list.appendChild(h('label', { class: `option${chosen.has(o.id) ? ' chosen' : ''}`, for: id },
      input,
      i < 9 ? h('span', { class: 'key' }, String(i + 1)) : false,
      h('span', { class: 'label' }, o.label),
      rec.has(o.id) ? h('span', { class: 'badge rec' }, '★ recommended') : false,
    ));
  });
  return list;
}

function pick(id: string, multi: boolean): void {
  const cur = new Set(ui.draft.choiceIds ?? []);
  if (multi) { if (cur.has(id)) cur.delete(id); else cur.add(id); } else { cur.clear(); cur.add(id); }
  ui.draft.choiceIds = [...cur];
  saveDraft();
  render();
}

function askBlock(ask: NonNullable<Card['asks']>[number], i: number): HTMLElement {
  const answers = ui.draft.answers ?? {};
  const set = (v: string) => { ui.draft.answers = { ...(ui.draft.answers ?? {}), [ask.id]: v }; saveDraft(); };
  if (ask.options?.length) {
    const block = h('fieldset', { class: 'ask' }, h('legend', {}, ask.title));
    ask.options.forEach((o, j) => {
      const id = `ask-${i}-${j}`;
      block.appendChild(h('label', { class: 'option', for: id },
        h('input', { type: 'radio', name: `ask-${i}`, id, key: id, checked: answers[ask.id] === o.id, disabled: disabled(),
          on: { change: () => { set(o.id); render(); } } }),
        h('span', { class: 'label' }, o.label)));
    });
    return block;
  }
  return h('fieldset', { class: 'ask' }, h('legend', {}, ask.title),
    h('input', { type: 'text', key: `ask-${i}`, value: answers[ask.id] ?? '', disabled: disabled(),
      aria: { label: ask.title }, on: { input: (e) => set((e.target as HTMLInputElement).value) } }));
}

function stepsList(c: Card): HTMLElement {
  const steps = c.steps ?? [];
  const failedIdx = steps.findIndex((s) => s.state === 'failed');
  return h('ol', { class: 'steps' }, ...steps.map((s, i) =>
    h('li', { class: `step step-${safeClass(s.state ?? 'unknown')}` },
      h('span', { class: 'label' }, s.title), s.state ? h('span', { class: 'badge' }, s.state) : false,
      s.detail ? h('div', { class: 'muted detail' }, s.detail) : false,
      i === failedIdx ? h('span', { class: 'muted' }, t(' (the step that failed)')) : false)));
}

function textArea(field: 'text' | 'note' | 'message', label: string, rows: number): HTMLElement {
  const id = `field-${field}`;
  return h('div', { class: 'field' },
    h('label', { for: id }, label),
    h('textarea', {
      id, key: id, rows, value: ui.draft[field] ?? '', disabled: field === 'message' ? !ui.canAct : disabled(),
      on: {
        input: (e) => { ui.draft[field] = (e.target as HTMLTextAreaElement).value; saveDraft(); updateAnswerButton(); },
      },
    }));
}

function updateAnswerButton(): void {
  const b = document.getElementById('answer') as HTMLButtonElement | null;
  if (b && ui.card) b.disabled = disabled() || !canAnswer(ui.card);
}

function canAnswer(c: Card): boolean {
  switch (c.kind) {
    case 'choice': return (ui.draft.choiceIds?.length ?? 0) > 0;
    case 'text': return !!ui.draft.text?.trim();
    case 'questions': return (c.asks ?? []).every((a) => !!ui.draft.answers?.[a.id]?.trim());
    case 'failure': return c.options?.length ? (ui.draft.choiceIds?.length ?? 0) > 0 : true;
    default: return (ui.draft.choiceIds?.length ?? 0) > 0 || !!ui.draft.text?.trim();
  }
}

function answerFromForm(c: Card): void {
  if (!canAnswer(c)) return;
  const body: Parameters<typeof answer>[0] = {};
  if (ui.draft.choiceIds?.length) body.choiceIds = ui.draft.choiceIds;
  if (c.kind !== 'choice' && ui.draft.text?.trim()) { body.text = ui.draft.text; body.via = 'text'; }
  if (c.kind === 'questions') body.answers = ui.draft.answers ?? {};
  if (c.kind === 'failure') {
    const idx = (c.steps ?? []).findIndex((s) => s.state === 'failed');
    if (idx >= 0) body.failedStep = idx;
  }
  answer(body);
}

function answer(b: Extract<FromWebview, { type: 'answer' }>['body']): void {
  if (disabled()) return;
  const body = { ...b };
  const note = ui.draft.note?.trim();
  if (note) { body.note = { text: note }; body.via = 'text'; }
  post({ type: 'answer', version: ui.shownVersion, body });
}

function undo(): void {
  if (disabled() || !ui.undoUntil) return;
  post({ type: 'undo', version: ui.shownVersion });
}

function updateBody(c: Card): HTMLElement {
  const facts: string[] = [];
  if (c.severity) facts.push(`severity ${c.severity}`);
  facts.push(seen(c.count, c.lastAt ?? c.createdAt, now()));
  if (c.firstAt) facts.push(`first ${ago(c.firstAt, now())}`);
  if (c.worker) facts.push(`worker ${c.worker}`);
  const from = [c.webhook?.name, c.webhook?.area?.name, c.from].filter(Boolean).join(' · ');
  return h('section', { class: 'answer update' },
    from ? h('p', { class: 'meta' }, from) : false,
    h('p', {}, facts.join(' · ')),
    c.url ? h('p', {}, h('button', { class: 'link', key: 'update-link', on: { click: (e) => { e.preventDefault(); post({ type: 'openLink', url: c.url! }); } } }, linkText(c.url))) : false,
    h('div', { class: 'actions' },
      h('button', { class: 'primary', key: 'gotit', disabled: disabled(), on: { click: pressed(() => post({ type: 'answer', version: ui.shownVersion, body: {} })) } }, t('Got it'))),
  );
}

/** A link's text is its address (never card-chosen words), so where it goes is always visible. */
function linkText(url: string): string {
  return url.length > 200 ? `${url.slice(0, 199)}…` : url;
}

// ----- Later -----

function laterSection(c: Card): Child {
  if (c.status === 'snoozed') {
    return h('section', { class: 'later' }, h('h2', {}, t('Later')),
      h('p', {}, c.until ? t('Back {0}.', dateTime(c.until, ui.timeZone)) : t('Back soon.')),
      h('button', { key: 'back', disabled: disabled(), on: { click: () => post({ type: 'back', version: ui.shownVersion }) } }, t('Back now')));
  }
  if (!waitsOnYou(c)) return false;
  const later = (until: string) => { if (!disabled()) post({ type: 'later', version: ui.shownVersion, until }); };
  return h('section', { class: 'later', id: 'later' }, h('h2', {}, t('Later')),
    h('div', { class: 'actions' },
      h('button', { key: 'later-1h', disabled: disabled(), on: { click: () => later('1h') } }, t('In 1 hour')),
      h('button', { key: 'later-tonight', disabled: disabled(), on: { click: () => later('tonight') } }, t('Tonight (6 PM)')),
      h('button', { key: 'later-tomorrow', disabled: disabled(), on: { click: () => later('tomorrow') } }, t('Tomorrow (8 AM)')),
    ),
    h('div', { class: 'actions' },
      h('input', { type: 'date', key: 'later-date', value: ui.draft.laterDate ?? '', disabled: disabled(), aria: { label: t('Date') },
        on: { input: (e) => { ui.draft.laterDate = (e.target as HTMLInputElement).value; saveDraft(); } } }),
      h('input', { type: 'time', key: 'later-time', value: ui.draft.laterTime ?? '', disabled: disabled(), aria: { label: t('Time') },
        on: { input: (e) => { ui.draft.laterTime = (e.target as HTMLInputElement).value; saveDraft(); } } }),
      h('button', { key: 'later-at', disabled: disabled(), on: { click: () => {
        const iso = localDateTimeToIso(ui.draft.laterDate ?? '', ui.draft.laterTime ?? '', ui.timeZone);
        if (!iso) { ui.problem = { code: 'bad_input', message: t('Pick a date and a time.'), next: t('Both fields are needed.') }; render(); return; }
        later(iso);
      } } }, t('Later until then')),
      h('span', { class: 'muted' }, t('time zone {0}', ui.timeZone)),
    ));
}

// ----- Hand over -----

function handOverSection(c: Card): Child {
  if (c.status === 'delegated') {
    const to = c.delegatedTo;
    return h('section', { class: 'handover' }, h('h2', {}, t('With a helper')),
      to ? h('p', {}, t('Handed to {0}, mode {1}.', helperName(to.assistantId, to.agentId), to.mode === 'loop' ? t('loop (its answer comes to you first)') : t('freely'))) : false,
      h('button', { key: 'takeBack', disabled: disabled(), on: { click: pressed(() => post({ type: 'takeBack', version: ui.shownVersion })) } }, t('Take back')));
  }
  if (!waitsOnYou(c) || c.kind === 'update') return false;
  if (!ui.showHandOver) {
    return h('section', { class: 'handover' },
      h('button', { key: 'handover-open', disabled: disabled(), on: { click: () => { ui.showHandOver = true; post({ type: 'loadAssistants' }); render(); } } }, t('Hand over…')));
  }
  const list = ui.assistants;
  if (!list) return h('section', { class: 'handover' }, h('p', { class: 'muted' }, t('Loading assistants…')));
  // The picks live in the draft: a re-render (a new version, a refusal, busy) keeps them.
  const sel = h('select', { key: 'handover-assistant', aria: { label: t('Assistant') } }) as HTMLSelectElement;
  for (const a of list) sel.appendChild(h('option', { value: a.id }, `${a.name} (${a.appName})`));
  if (list.some((a) => a.id === ui.draft.delegateAssistantId)) sel.value = ui.draft.delegateAssistantId!;
  const agentSel = h('select', { key: 'handover-agent', aria: { label: t('Agent') } }) as HTMLSelectElement;
  const fillAgents = () => {
    clear(agentSel);
    agentSel.appendChild(h('option', { value: '' }, t('any agent')));
    const agents = list.find((a) => a.id === sel.value)?.agents ?? [];
    for (const g of agents) agentSel.appendChild(h('option', { value: g.id }, `${g.name} (${g.state})`));
    agentSel.value = agents.some((g) => g.id === ui.draft.delegateAgentId) ? ui.draft.delegateAgentId! : '';
  };
  sel.addEventListener('change', () => { ui.draft.delegateAssistantId = sel.value; ui.draft.delegateAgentId = ''; fillAgents(); saveDraft(); });
  agentSel.addEventListener('change', () => { ui.draft.delegateAgentId = agentSel.value; saveDraft(); });
  fillAgents();
  const mode = h('select', { key: 'handover-mode', aria: { label: t('Mode') } }, h('option', { value: 'freely' }, t('freely: its answer goes straight to the asking assistant')), h('option', { value: 'loop' }, t('loop: its answer comes to me first'))) as HTMLSelectElement;
  mode.value = ui.draft.delegateMode === 'loop' ? 'loop' : 'freely';
  mode.addEventListener('change', () => { ui.draft.delegateMode = mode.value; saveDraft(); });
  const note = h('input', { type: 'text', key: 'handover-note', placeholder: t('Note for the helper (optional)'), value: ui.draft.delegateNote ?? '',
    on: { input: (e) => { ui.draft.delegateNote = (e.target as HTMLInputElement).value; saveDraft(); } } }) as HTMLInputElement;
  return h('section', { class: 'handover' }, h('h2', {}, t('Hand over')),
    list.length === 0 ? h('p', { class: 'muted' }, t('No other assistants are in reach.')) : false,
    h('div', { class: 'actions' }, sel, agentSel, mode), note,
    h('div', { class: 'actions' },
      h('button', { class: 'primary', key: 'handover-send', disabled: disabled() || list.length === 0, on: { click: pressed(() => {
        if (!sel.value) return;
        post({ type: 'delegate', version: ui.shownVersion, assistantId: sel.value, ...(agentSel.value ? { agentId: agentSel.value } : {}),
          mode: mode.value === 'loop' ? 'loop' : 'freely', ...(note.value.trim() ? { note: note.value.trim() } : {}) });
      }) } }, t('Hand over')),
      h('button', { key: 'handover-cancel', on: { click: () => { ui.showHandOver = false; render(); } } }, t('Cancel'))));
}

function helperName(assistantId: string, agentId?: string): string {
  const a = ui.assistants?.find((x) => x.id === assistantId);
  const g = a?.agents.find((x) => x.id === agentId);
  return `${a?.name ?? assistantId}${agentId ? ` · ${g?.name ?? agentId}` : ''}`;
}

// ----- Write to the assistant -----

function messageSection(c: Card): Child {
  if (!waitsOnYou(c) || c.kind === 'update') return false;
  return h('section', { class: 'message' }, h('h2', {}, t('Write to the assistant')),
    textArea('message', t('The assistant acts on your words as the answer'), 2),
    h('button', { key: 'send-message', disabled: disabled(), on: { click: pressed(() => {
      const text = ui.draft.message?.trim();
      if (!text) { ui.problem = { code: 'bad_input', message: t('Write something first.'), next: t('Type your words, then Send.') }; render(); return; }
      post({ type: 'message', version: ui.shownVersion, body: text });
    }) } }, t('Send')));
}

// ----- History -----

function history(c: Card): Child {
  const entries = c.history ?? [];
  const from = c.answeredFrom ? t('Answered from {0}{1}.', c.answeredFrom.app, c.answeredFrom.machine ? ` on ${c.answeredFrom.machine.name}` : '') : '';
  if (!entries.length && !from) return false;
  return h('section', { class: 'history' }, h('h2', {}, t('History')),
    from ? h('p', {}, from) : false,
    h('ul', {}, ...entries.map((e) => {
      const line = historyLine(e, ui.timeZone, ui.sentWords);
      return h('li', {},
        h('span', { class: 'muted' }, line.at), ' ',
        h('strong', {}, line.what), line.who ? ` — ${line.who}` : '', line.detail ? ` — ${line.detail}` : '');
    })));
}

const safeClass = (s: string) => s.replace(/[^a-z0-9-]/gi, '').slice(0, 20);

// ---------- keyboard ----------

document.addEventListener('keydown', (e) => {
  const t = e.target as HTMLElement;
  const typing = t.tagName === 'TEXTAREA' || (t.tagName === 'INPUT' && !['radio', 'checkbox'].includes((t as HTMLInputElement).type)) || t.tagName === 'SELECT';
  if (e.key === 'Escape') {
    // The draft first: the last 300 ms of typing would be lost with the panel.
    if (draftTimer) { clearTimeout(draftTimer); draftTimer = undefined; post({ type: 'draft', draft: ui.draft }); }
    post({ type: 'close' });
    return;
  }
  const c = ui.card;
  if (!c) return;
  if (typing) {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && waitsOnYou(c) && c.kind !== 'approval' && c.kind !== 'update') {
      e.preventDefault();
      if (keyGuard.allows()) answerFromForm(c);
    }
    return;
  }
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  // Too soon after the card showed or the panel got focus: no pick, no answer, no button press.
  if ((e.key === 'Enter' || e.key === ' ' || /^[1-9]$/.test(e.key)) && !keyGuard.allows()) { e.preventDefault(); return; }
  if (/^[1-9]$/.test(e.key) && waitsOnYou(c)) {
    const o = c.options?.[Number(e.key) - 1];
    if (o && !disabled()) { e.preventDefault(); pick(o.id, !!c.multi); }
    return;
  }
  if (e.key === 'Enter' && t.tagName !== 'BUTTON' && t.tagName !== 'A' && waitsOnYou(c)) {
    e.preventDefault();
    if (c.kind === 'update') post({ type: 'answer', version: ui.shownVersion, body: {} });
    else if (c.kind !== 'approval') answerFromForm(c);
    return;
  }
  if (e.key === 'u' || e.key === 'U') { e.preventDefault(); undo(); return; }
  if (e.key === 'l' || e.key === 'L') {
    e.preventDefault();
    (root.querySelector('[data-key="later-1h"]') as HTMLElement | null)?.focus();
  }
});

render();
post({ type: 'ready' });
