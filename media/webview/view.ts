// The card panel's view: the state as lit-html templates. lit-html updates only the parts that
// changed (lists keyed by id), so focus, the text being typed (IME composition too) and a screen
// reader's place survive an update. Card text only ever goes into text bindings (a text node or an
// attribute's value): no unsafeHTML, no innerHTML.
import { html, nothing, type TemplateResult } from 'lit-html';
import { live } from 'lit-html/directives/live.js';
import { repeat } from 'lit-html/directives/repeat.js';
import type { PanelAsk, PanelCard } from '../../src/shared/panel-card';
import { ago, dateTime, seen } from '../../src/shared/format';
import { historyLine } from '../../src/shared/history-line';
import { t } from '../../src/shared/l10n';
import { approvalAnswers } from '../../src/shared/approval';
import { helperNameOf, markedFailedStep } from '../../src/shared/hand-over';
import { loopOnlyWords } from '../../src/shared/loop-only';
import { laterPresets } from '../../src/shared/answer-choices';
import { readProposal } from '../../src/shared/proposal';
import { agentStateWords, severityWords, stepStateWords, urgencyWords } from '../../src/shared/card-view';
import type { Notice, Request } from '../../src/shared/protocol';
import { canHandOver } from '../../src/shared/grant-scopes';
import { actionRow, VERSION_ACTIONS, type PanelPlace } from '../../src/shared/card-actions';
import { elsewhereNote } from '../../src/shared/card-computer';
import { shownAddress } from '../../src/shared/hidden-chars';
import { hiddenWarning, lookAlikeWarning } from '../../src/shared/hidden-words';
import * as act from './actions';
import type { Input, PanelState } from './state';
import { canAnswer, changedText, disabled, holdLeft, nextOffered, problemInBanner, hostNow, waitsOnYou } from './state';
import { cardWords as w, visibleControls as v } from './text';
import { blankRunWords, diffCount, diffMark, lineCount, longLineWords, summaryParts, type ShownLine } from '../../src/shared/summary-blocks';

/** What the view calls back: input changes the state, a press may post, a request posts. */
export interface ViewHooks {
  input(e: Input): void;
  /**
   * A press on a button. `guarded`: a keyboard activation (Enter or Space on the focused button)
   * waits out the key guard's quiet moment; a mouse click always counts.
   */
  press(e: Event, what: (s: PanelState) => act.PanelPress, guarded?: boolean): void;
  /** A message that gets no reply. */
  post(m: Notice): void;
  /** A message that gets a reply: main.ts gives it an id the reply names. */
  request(m: Request): void;
  /** The Next button: opens the next card in this panel (a keyboard activation waits out the moment). */
  next(e: Event): void;
}

type Part = TemplateResult | typeof nothing;

export function view(s: PanelState, on: ViewHooks, localNow: number): Part {
  if (s.gone) return html`<p class="problem">${v(s.gone)}</p>${nextSection(s, on)}`;
  const c = s.card;
  if (!c) {
    // The first read failed: say so and what happens next (it is read again once back online).
    return s.problem
      ? html`<p class="problem">${v(`${s.problem.message} ${s.problem.next}`)}</p>`
      : html`<p class="muted">${t('Loading the card…')}</p>`;
  }
  const now = hostNow(s, localNow);
  return html`
    ${header(s, c, on, now)}
    ${statusArea(s, on, localNow)}
    ${nextSection(s, on)}
    ${c.summary ? summaryView(c.summary) : nothing}
    ${proposal(s, c, on)}
    ${body(s, c, on, now)}
    ${laterSection(s, c, on)}
    ${handOverSection(s, c, on)}
    ${messageSection(s, c, on)}
    ${history(s, c)}
    <footer class="keys muted">${t('1–9 pick an option · Enter answers · U undo · L Later · N next card · Esc closes')}</footer>`;
}

/**
 * The summary in parts no words can fake (#52 F4): the card's own words, and each quoted block
 * (what an assistant's model wrote: a command, its "why") in a box of its own with its line count.
 * Runs of blank lines show as one counted mark and very long lines are marked; nothing is cut and
 * nothing scrolls inside a box, so the end of a command is never out of sight unsaid. A file
 * tool's diff shows each line's mark (`-`, `+`) in text, and the theme's diff colours behind it.
 */
function summaryView(summary: string): Part {
  return html`<div class="summary" id="summary">${summaryParts(summary).map((p) => (p.kind === 'quoted'
    ? html`<figure class="quoted ${p.diff ? 'diff' : 'plain'}"><figcaption class="muted">${p.diff ? diffCount(p.count, p.diff.removed, p.diff.added) : lineCount(p.count)}</figcaption><pre>${shownLines(p.lines)}</pre></figure>`
    : html`<p class="words">${shownLines(p.lines)}</p>`))}</div>`;
}

function shownLines(lines: readonly ShownLine[]): Part[] {
  return lines.map((l, i) => {
    const end = i < lines.length - 1 ? '\n' : '';
    const line = 'blank' in l ? html`<span class="mark">${blankRunWords(l.blank)}</span>`
      : l.long !== undefined ? html`<span class="mark">${longLineWords(l.long)}</span> ${w(l.text)}` : html`${w(l.text)}`;
    return l.change ? html`<span class="change ${l.change}">${diffMark(l.change)} ${line}</span>${end}` : html`${line}${end}`;
  });
}

function header(s: PanelState, c: PanelCard, on: ViewHooks, now: number): Part {
  const meta: string[] = [];
  if (c.assistant) meta.push(c.agent ? `${c.assistant.name} · ${c.agent.name}` : c.assistant.name);
  if (c.area) meta.push(c.area.name);
  if (c.machine) meta.push(c.machine.name);
  if (c.urgency) meta.push(urgencyWords(c.urgency));
  if (c.createdAt) meta.push(t('asked {0}', ago(c.createdAt, now)));
  return html`<header>
    <div class="badges">
      <span class="badge kind kind-${safeClass(c.kind)}">${v(kindLabel(c))}</span>
      <span class="badge state">${v(stateLabel(c))}</span>
      ${c.blocking ? html`<span class="badge blocking">${t('blocking')}</span>` : nothing}
      ${c.highStakes ? html`<span class="badge stakes">${t('high stakes')}</span>` : nothing}
    </div>
    <h1 id="title">${w(c.title)}</h1>
    <p class="meta muted">${v(meta.join(' · '))}${c.assistant && !s.elsewhere
      ? html`<button class="link" data-key="go-terminal" title=${t('Show the terminal where the asking assistant runs')}
          @click=${() => on.post({ type: 'goToTerminal' })}>${t('Go to terminal')}</button>`
      : nothing}</p>
    ${s.elsewhere ? html`<p class="meta muted" data-key="elsewhere">${v(elsewhereNote(s.elsewhere))}</p>` : nothing}
    ${c.highStakes ? html`<div class="banner stakes" role="note">
      <span>${t('High stakes: this card spends money, cannot be undone or goes public, so it is answered only in the service. Every action here is off.')}</span>
      ${c.url ? html`<button class="primary" data-key="open-browser" @click=${() => on.post({ type: 'openInBrowser' })}>${t('Open in browser')}</button>` : nothing}
    </div>` : nothing}
    ${s.notAllowed ? html`<div class="banner scopes" id="not-allowed" role="note">${v(s.notAllowed)}</div>` : nothing}
    ${s.changedSinceAnswer ? html`<div class="banner changed">${v(changedText(c))}</div>` : nothing}
  </header>`;
}

function kindLabel(c: PanelCard): string {
  switch (c.kind) {
    case 'choice': return c.multi ? t('choose several') : t('choose one');
    case 'approval': return t('approval');
    case 'text': return t('question');
    case 'questions': return t('questions');
    case 'failure': return t('failed step');
    case 'update': return c.severity ? t('notice · {0}', severityWords(c.severity)) : t('notice');
    default: return c.kind;
  }
}

function stateLabel(c: PanelCard): string {
  if (c.status === 'pending') return c.turn === 'you' ? t('waiting on you') : t('waiting on the assistant');
  if (c.status === 'answered') return t('answered');
  if (c.status === 'snoozed') return t('in Later');
  if (c.status === 'delegated') return t('with a helper');
  if (c.status === 'done') return t('done');
  return c.status;
}

/**
 * The buttons of the actions whose press is the version alone, at `place`, each as its row in the
 * action table says (shared/card-actions.ts `panel`): a new action of that kind needs no line here.
 */
function actionButtons(s: PanelState, on: ViewHooks, place: PanelPlace): Part {
  return html`${VERSION_ACTIONS.filter((a) => actionRow(a).panel?.place === place).map((a) => {
    const b = actionRow(a).panel!;
    return html`<button class=${b.primary ? 'primary' : nothing} data-key=${b.key} ?disabled=${disabled(s)}
      @click=${(e: Event) => on.press(e, (x) => act.versionPress(x, a), b.guarded)}>${b.label()}</button>`;
  })}`;
}

/** What happened to the press: shown here; the live region (outside this view) says it aloud. */
function statusArea(s: PanelState, on: ViewHooks, localNow: number): Part {
  const left = holdLeft(s, localNow);
  const delegated = s.card?.status === 'delegated';
  const p = s.problem && !problemInBanner(s) ? s.problem : undefined;
  return html`<section id="status">
    ${s.busy ? html`<p class="muted">${t('Sending…')}</p>` : nothing}
    ${s.notice ? html`<p class="notice">${v(s.notice)}</p>` : nothing}
    ${s.answered ? html`<p class="answered" id="answered">${v(s.answered)}</p>` : nothing}
    ${left > 0 ? html`<div class="undo">
      <span id="countdown">${countdownText(s, left)}</span>
      ${delegated || !s.allowed.answer ? nothing : actionButtons(s, on, 'hold')}
    </div>` : nothing}
    ${p ? html`<div class="problem">
      <strong>${v(p.message)}</strong> <span>${v(p.next)}</span>
      ${p.detail ? html`<p class="detail">${v(t('The service says: {0}', p.detail))}</p>` : nothing}
      ${p.fields?.length ? html`<ul class="fields">${repeat(p.fields, (f) => f.field, (f) => html`<li>${v(t('{0}: {1}', f.field, f.reason))}</li>`)}</ul>` : nothing}
      ${p.url ? html`<button data-key="problem-open" @click=${() => on.post({ type: 'openInBrowser' })}>${t('Open in browser')}</button>` : nothing}
    </div>` : nothing}
  </section>`;
}

/**
 * Once the card on screen no longer waits on the person: the card that comes next, who asks it
 * and its title shown (plain text, bounded by the host) before it opens, one button (or N) away. It opens in
 * this panel; nothing is answered by it.
 */
function nextSection(s: PanelState, on: ViewHooks): Part {
  if (!nextOffered(s)) return nothing;
  const n = s.next;
  return html`<section class="next" id="next" aria-labelledby="next-heading">
    <h2 id="next-heading">${t('Next waiting on you')}</h2>
    <p><span id="next-title">${w(n.who ? t('{0} asks: {1}', n.who, n.title) : n.title)}</span>${n.blocking ? html` <span class="badge blocking">${t('blocking')}</span>` : nothing}</p>
    ${n.more > 0 ? html`<p class="muted">${n.more === 1 ? t('1 more card waits after it.') : t('{0} more cards wait after it.', n.more)}</p>` : nothing}
    <button class="primary" data-key="next" @click=${(e: Event) => on.next(e)}>${t('Open next card (N)')}</button>
  </section>`;
}

// A hand-over is undone with Take back (below); an answer with Undo; a notice just closes.
const countdownText = (s: PanelState, left: number) => (s.card?.status === 'delegated'
  ? t('The helper can see it in {0} s.', left)
  : s.card?.kind === 'update' ? t('Closes in {0} s.', left) : t('The assistant hears it in {0} s.', left));

/**
 * A `loop` helper's proposal in the card's own words (labels and titles, never ids or JSON), with
 * one press to accept it as the answer; the form below answers otherwise.
 */
function proposal(s: PanelState, c: PanelCard, on: ViewHooks): Part {
  const p = readProposal(c);
  if (!p) return nothing;
  const by = (p.helper ? helperName(s, p.helper.assistantId, p.helper.agentId) : undefined) ?? t('The helper');
  const asks = waitsOnYou(c) && s.allowed.answer;
  return html`<section class="proposal" id="proposal" aria-labelledby="proposal-title">
    <h2 id="proposal-title">${v(t('{0} proposes', by))}</h2>
    <ul>${p.lines.map((line) => html`<li>${v(line)}</li>`)}</ul>
    ${asks && p.accept ? html`<div class="actions">
      <button class="primary" data-key="proposal-accept" ?disabled=${disabled(s)} @click=${(e: Event) => on.press(e, act.acceptProposal, true)}>${t('Accept as my answer')}</button>
      <span class="muted">${t('or answer otherwise below.')}</span>
    </div>` : nothing}
    ${asks && !p.accept ? html`<p class="muted">${t('This proposal does not fit the card as it is; answer below.')}</p>` : nothing}
  </section>`;
}

// ----- answering -----

function body(s: PanelState, c: PanelCard, on: ViewHooks, now: number): Part {
  if (!waitsOnYou(c) || !s.allowed.answer) return nothing;
  if (c.kind === 'update') return updateBody(s, c, on, now);
  const off = disabled(s);
  const hidden = hiddenWarning(c);
  const lookAlike = lookAlikeWarning(c);
  let parts: Part[];
  switch (c.kind) {
    case 'choice': parts = [optionsList(s, c, !!c.multi, on)]; break;
    case 'approval': parts = []; break;
    case 'text': parts = [textArea(s, 'text', t('Your answer'), 4, on)]; break;
    case 'questions': parts = [html`${repeat(c.asks ?? [], (a) => a.id, (a, i) => askBlock(s, a, i, on))}`]; break;
    case 'failure': parts = [stepsList(s, c, on), c.options?.length ? optionsList(s, c, false, on) : nothing]; break;
    default: parts = [c.options?.length ? optionsList(s, c, !!c.multi, on) : nothing, textArea(s, 'text', t('Your answer'), 3, on)];
  }
  const [approve, decline] = approvalAnswers();
  return html`<section class="answer">
    ${parts}
    ${textArea(s, 'note', t('Note to the assistant (optional)'), 2, on)}
    ${hidden ? html`<div class="banner hidden-chars" id="hidden-chars" role="note">${hidden}</div>` : nothing}
    ${lookAlike ? html`<div class="banner hidden-chars" id="look-alike" role="note">${lookAlike}</div>` : nothing}
    ${c.kind === 'approval' ? approvalOptions(s, c, on) : nothing}
    <div class="actions">
      ${c.kind === 'approval'
        ? html`<button class="primary" data-key="approve" ?disabled=${off} @click=${(e: Event) => on.press(e, (x) => act.answer(x, { approved: approve.approved }), true)}>${approve.label}</button>
               <button data-key="decline" ?disabled=${off} @click=${(e: Event) => on.press(e, (x) => act.answer(x, { approved: decline.approved }), true)}>${decline.label}</button>`
        : html`<button class="primary" id="answer" data-key="answer" ?disabled=${off || !canAnswer(s)} @click=${(e: Event) => on.press(e, act.answerFromForm, true)}>${t('Answer')}</button>`}
      <button data-key="theyDecide" ?disabled=${off} title=${t('Hand the decision back to the assistant')}
        @click=${(e: Event) => on.press(e, (x) => act.answer(x, { theyDecide: true }), true)}>${t('You decide')}</button>
    </div>
  </section>`;
}

/**
 * An approval's own options: the CLI's "don't ask again" (#54), each a button whose words are the
 * whole rule and the settings file it goes to (the card's words: hidden characters shown as marks),
 * after any warning about them and next to Approve and Decline.
 */
function approvalOptions(s: PanelState, c: PanelCard, on: ViewHooks): Part {
  if (!c.options?.length) return nothing;
  const off = disabled(s);
  return html`<div class="approval-options" role="group" aria-label=${t('More ways to approve')}>
    ${repeat(c.options, (o) => o.id, (o, i) => html`<button class="approval-option" data-key=${`approval-option-${i}`} ?disabled=${off}
      @click=${(e: Event) => on.press(e, (x) => act.approveWithOption(x, o.id), true)}>${w(o.label)}</button>`)}
  </div>`;
}

function optionsList(s: PanelState, c: PanelCard, multi: boolean, on: ViewHooks): Part {
  const rec = new Set(c.recommendedIds ?? []);
  const chosen = new Set(s.draft.choiceIds ?? []);
  const off = disabled(s);
  return html`<div class="options" role=${multi ? 'group' : 'radiogroup'} aria-label=${t('Options')}>
    ${repeat(c.options ?? [], (o) => o.id, (o, i) => html`<label class="option${chosen.has(o.id) ? ' chosen' : ''}" for=${`opt-${i}`}>
      <input type=${multi ? 'checkbox' : 'radio'} name="option" id=${`opt-${i}`} data-key=${`opt-${i}`}
        .checked=${live(chosen.has(o.id))} ?disabled=${off}
        @change=${() => on.input({ type: 'pick', optionId: o.id, multi })}>
      ${i < 9 ? html`<span class="key" aria-hidden="true">${String(i + 1)}</span>` : nothing}
      <span class="label">${w(o.label)}</span>
      ${rec.has(o.id) ? html`<span class="badge rec">${t('★ recommended')}</span>` : nothing}
    </label>`)}
  </div>`;
}

function askBlock(s: PanelState, ask: PanelAsk, i: number, on: ViewHooks): Part {
  const answers = s.draft.answers ?? {};
  const off = disabled(s);
  if (ask.options?.length) {
    return html`<fieldset class="ask"><legend>${w(ask.title)}</legend>
      ${repeat(ask.options, (o) => o.id, (o, j) => html`<label class="option" for=${`ask-${i}-${j}`}>
        <input type="radio" name=${`ask-${i}`} id=${`ask-${i}-${j}`} data-key=${`ask-${i}-${j}`}
          .checked=${live(answers[ask.id] === o.id)} ?disabled=${off}
          @change=${() => on.input({ type: 'editAsk', askId: ask.id, value: o.id })}>
        <span class="label">${w(o.label)}</span>
      </label>`)}
    </fieldset>`;
  }
  return html`<fieldset class="ask"><legend>${w(ask.title)}</legend>
    <input type="text" data-key=${`ask-${i}`} .value=${live(answers[ask.id] ?? '')} ?disabled=${off} aria-label=${v(ask.title)}
      @input=${(e: Event) => on.input({ type: 'editAsk', askId: ask.id, value: (e.target as HTMLInputElement).value })}>
  </fieldset>`;
}

/** The plan's steps; the person picks the one that failed, the card's own mark picked until then. */
function stepsList(s: PanelState, c: PanelCard, on: ViewHooks): Part {
  const marked = markedFailedStep(c);
  const chosen = s.failedStep ?? marked;
  const off = disabled(s);
  return html`<fieldset class="steps"><legend>${t('Which step failed?')}</legend>
    ${(c.steps ?? []).map((x, i) => html`<label class="step step-${safeClass(x.state ?? 'unknown')}${i === chosen ? ' chosen' : ''}" for=${`step-${i}`}>
      <input type="radio" name="failed-step" id=${`step-${i}`} data-key=${`step-${i}`} .checked=${live(i === chosen)} ?disabled=${off}
        @change=${() => on.input({ type: 'pickStep', index: i })}>
      <span class="label">${w(`${i + 1}. ${x.title}`)}</span>${x.state ? html`<span class="badge">${v(stepStateWords(x.state))}</span>` : nothing}
      ${i === marked ? html`<span class="muted">${t('(the card marks this one)')}</span>` : nothing}
      ${x.detail ? html`<div class="muted detail">${v(x.detail)}</div>` : nothing}
    </label>`)}
  </fieldset>`;
}

function textArea(s: PanelState, field: 'text' | 'note' | 'message', label: string, rows: number, on: ViewHooks): Part {
  const id = `field-${field}`;
  return html`<div class="field">
    <label for=${id}>${label}</label>
    <textarea id=${id} data-key=${id} rows=${rows} .value=${live(s.draft[field] ?? '')}
      ?disabled=${field === 'message' ? !s.canAct : disabled(s)}
      @input=${(e: Event) => on.input({ type: 'edit', field, value: (e.target as HTMLTextAreaElement).value })}></textarea>
  </div>`;
}

function updateBody(s: PanelState, c: PanelCard, on: ViewHooks, now: number): Part {
  const facts: string[] = [];
  if (c.severity) facts.push(t('severity {0}', severityWords(c.severity)));
  facts.push(seen(c.count, c.lastAt ?? c.createdAt, now));
  if (c.firstAt) facts.push(t('first {0}', ago(c.firstAt, now)));
  if (c.worker) facts.push(t('worker {0}', c.worker));
  const from = [c.webhook?.name, c.webhook?.area?.name, c.from].filter(Boolean).join(' · ');
  const url = c.url;
  return html`<section class="answer update">
    ${from ? html`<p class="meta">${v(from)}</p>` : nothing}
    <p>${v(facts.join(' · '))}</p>
    ${url ? html`<p><button class="link" data-key="update-link" @click=${(e: Event) => { e.preventDefault(); on.post({ type: 'openLink', url }); }}>${v(linkText(url))}</button></p>` : nothing}
    <div class="actions">
      ${actionButtons(s, on, 'notice')}
    </div>
  </section>`;
}

/**
 * A link's text is its address (never card-chosen words), as it will open: a look-alike domain in
 * punycode, hidden characters shown (shared/hidden-chars.ts), so where it goes is always visible.
 */
function linkText(url: string): string {
  const shown = shownAddress(url);
  return shown.length > 200 ? `${shown.slice(0, 199)}…` : shown;
}

// ----- Later -----

function laterSection(s: PanelState, c: PanelCard, on: ViewHooks): Part {
  if (!s.allowed.later) return nothing;
  const off = disabled(s);
  if (c.status === 'snoozed') {
    return html`<section class="later"><h2>${t('Later')}</h2>
      <p>${c.until ? t('Back {0}.', dateTime(c.until, s.timeZone)) : t('Back soon.')}</p>
      ${actionButtons(s, on, 'snoozed')}
    </section>`;
  }
  if (!waitsOnYou(c)) return nothing;
  const later = (until: string) => (e: Event) => on.press(e, (x) => act.later(x, until));
  return html`<section class="later" id="later"><h2>${t('Later')}</h2>
    <div class="actions">
      ${laterPresets().map((p) => html`<button data-key=${`later-${p.until}`} ?disabled=${off} @click=${later(p.until)}>${p.label}</button>`)}
    </div>
    <div class="actions">
      <input type="date" data-key="later-date" .value=${live(s.draft.laterDate ?? '')} ?disabled=${off} aria-label=${t('Date')}
        @input=${(e: Event) => on.input({ type: 'edit', field: 'laterDate', value: (e.target as HTMLInputElement).value })}>
      <input type="time" data-key="later-time" .value=${live(s.draft.laterTime ?? '')} ?disabled=${off} aria-label=${t('Time')}
        @input=${(e: Event) => on.input({ type: 'edit', field: 'laterTime', value: (e.target as HTMLInputElement).value })}>
      <button data-key="later-at" ?disabled=${off} @click=${(e: Event) => on.press(e, act.laterAt)}>${t('Later until then')}</button>
      <span class="muted">${t('time zone {0}', s.timeZone)}</span>
    </div>
  </section>`;
}

// ----- Hand over -----

function handOverSection(s: PanelState, c: PanelCard, on: ViewHooks): Part {
  if (!s.allowed.delegate) return nothing;
  const off = disabled(s);
  if (c.status === 'delegated') {
    const to = c.delegatedTo;
    return html`<section class="handover"><h2>${t('With a helper')}</h2>
      ${to ? html`<p>${v(t('Handed to {0}, mode {1}.', helperName(s, to.assistantId, to.agentId) ?? t('a helper'), to.mode === 'loop' ? t('loop (its answer comes to you first)') : t('freely')))}</p>` : nothing}
      ${actionButtons(s, on, 'delegated')}
    </section>`;
  }
  // Handing over picks the helper from the assistants: both scopes are needed.
  if (!waitsOnYou(c) || c.kind === 'update' || !canHandOver(s.allowed)) return nothing;
  if (!s.showHandOver) {
    return html`<section class="handover">
      <button data-key="handover-open" ?disabled=${off} @click=${() => { on.input({ type: 'handOverForm', open: true }); on.request({ type: 'loadAssistants' }); }}>${t('Hand over…')}</button>
    </section>`;
  }
  const list = s.assistants;
  if (!list) return html`<section class="handover"><p class="muted">${t('Loading assistants…')}</p></section>`;
  // The picks live in the draft: an update (a new version, a refusal, busy) keeps them.
  const helper = act.pickedHelper(s);
  const agent = act.pickedAgent(s);
  const agents = list.find((a) => a.id === helper)?.agents ?? [];
  const mode = s.draft.delegateMode === 'loop' || c.loopOnly ? 'loop' : 'freely';
  return html`<section class="handover"><h2>${t('Hand over')}</h2>
    ${list.length === 0 ? html`<p class="muted">${t('No other assistants are in reach.')}</p>` : nothing}
    <div class="actions">
      <select data-key="handover-assistant" aria-label=${t('Assistant')}
        @change=${(e: Event) => on.input({ type: 'pickHelper', assistantId: (e.target as HTMLSelectElement).value })}>
        ${repeat(list, (a) => a.id, (a) => html`<option value=${a.id} ?selected=${a.id === helper}>${v(`${a.name} (${a.appName})`)}</option>`)}
      </select>
      <select data-key="handover-agent" aria-label=${t('Agent')}
        @change=${(e: Event) => on.input({ type: 'pickAgent', agentId: (e.target as HTMLSelectElement).value })}>
        <option value="" ?selected=${agent === ''}>${t('any agent')}</option>
        ${repeat(agents, (g) => g.id, (g) => html`<option value=${g.id} ?selected=${g.id === agent}>${v(t('{0} ({1})', g.name, agentStateWords(g.state)))}</option>`)}
      </select>
      <select data-key="handover-mode" aria-label=${t('Mode')}
        @change=${(e: Event) => on.input({ type: 'pickMode', mode: (e.target as HTMLSelectElement).value === 'loop' ? 'loop' : 'freely' })}>
        ${c.loopOnly ? nothing : html`<option value="freely" ?selected=${mode === 'freely'}>${t('freely: its answer goes straight to the asking assistant')}</option>`}
        <option value="loop" ?selected=${mode === 'loop'}>${t('loop: its answer comes to me first')}</option>
      </select>
    </div>
    ${c.loopOnly ? html`<p class="muted" id="loop-only">${loopOnlyWords()}</p>` : nothing}
    <input type="text" data-key="handover-note" aria-label=${t('Note for the helper (optional)')} placeholder=${t('Note for the helper (optional)')}
      .value=${live(s.draft.delegateNote ?? '')}
      @input=${(e: Event) => on.input({ type: 'edit', field: 'delegateNote', value: (e.target as HTMLInputElement).value })}>
    <div class="actions">
      <button class="primary" data-key="handover-send" ?disabled=${off || list.length === 0} @click=${(e: Event) => on.press(e, act.delegate, true)}>${t('Hand over')}</button>
      <button data-key="handover-cancel" @click=${() => on.input({ type: 'handOverForm', open: false })}>${t('Cancel')}</button>
    </div>
  </section>`;
}

/** The helper by name once the assistants are read; "a helper" until then (never its id). */
function helperName(s: PanelState, assistantId: string, agentId?: string): string | undefined {
  return helperNameOf(s.assistants, assistantId, agentId);
}

// ----- Write to the assistant -----

function messageSection(s: PanelState, c: PanelCard, on: ViewHooks): Part {
  if (!waitsOnYou(c) || c.kind === 'update' || !s.allowed.reply) return nothing;
  return html`<section class="message"><h2>${t('Write to the assistant')}</h2>
    ${textArea(s, 'message', t('The assistant acts on your words as the answer'), 2, on)}
    <button data-key="send-message" ?disabled=${disabled(s)} @click=${(e: Event) => on.press(e, act.message, true)}>${t('Send')}</button>
  </section>`;
}

// ----- History -----

function history(s: PanelState, c: PanelCard): Part {
  const entries = c.history ?? [];
  const af = c.answeredFrom;
  const from = !af ? '' : af.machine ? t('Answered from {0} on {1}.', af.app, af.machine.name) : t('Answered from {0}.', af.app);
  if (!entries.length && !from) return nothing;
  return html`<section class="history"><h2>${t('History')}</h2>
    ${from ? html`<p>${v(from)}</p>` : nothing}
    <ul>${entries.map((e) => {
      const line = historyLine(e, s.timeZone, s.sentWords);
      return html`<li><span class="muted">${v(line.at)}</span> <strong>${v(line.what)}</strong>${line.who ? v(` — ${line.who}`) : nothing}${line.detail ? v(` — ${line.detail}`) : nothing}</li>`;
    })}</ul>
  </section>`;
}

const safeClass = (x: string) => x.replace(/[^a-z0-9-]/gi, '').slice(0, 20);
