// The card panel's state: one value, changed only by `reduce` from the host's messages and the
// person's input. Pure (no DOM, no clock of its own), so it is tested in plain Node.
import type { PanelCard } from '../../src/shared/panel-card';
import { secondsLeft } from '../../src/shared/format';
import { t } from '../../src/shared/l10n';
import type { ActionType, AssistantChoice, Draft, RequestKind, ShownProblem, ToWebview } from '../../src/shared/protocol';
import { EVERYTHING, type Allowed } from '../../src/shared/grant-scopes';
import { waitsOnYou } from '../../src/shared/card-facts';
import { ANSWER_KEYS_QUIET_MS } from '../../src/shared/key-guard';
import type { NextCard } from '../../src/shared/next-card';

export interface PanelState {
  cardId: string;
  card?: PanelCard;
  /** The version every press names: the one on screen. */
  shownVersion: number;
  changedSinceAnswer: boolean;
  canAct: boolean;
  timeZone: string;
  /** On the host's clock (the extension's: the hold runs there). */
  undoUntil?: string;
  /** The host's clock minus this webview's, from the host's last message. */
  hostSkewMs: number;
  draft: Draft;
  assistants?: AssistantChoice[];
  /** The requests sent and not yet answered, by id: what each asked (a reply is matched by its id). */
  pending: Readonly<Record<string, RequestKind>>;
  /** The press on its way (the host said `busy` for it). */
  busy?: ActionType;
  notice?: string;
  /** What the person answered (or wrote), shown under the result as plain text. */
  answered?: string;
  sentWords: Record<string, string>;
  problem?: ShownProblem;
  gone?: string;
  showHandOver: boolean;
  /** Bumped when the translations arrive: the words on screen change, nothing else. */
  words: number;
  /** What the sign-in's scopes allow: the rest is not offered. */
  allowed: Allowed;
  /** What the sign-in was not allowed, and how to allow it. */
  notAllowed?: string;
  /** The computer the card's assistant runs on, when not this one (its terminal is there). */
  elsewhere?: string;
  /** The step the person says failed (a failure card); the card's own mark until they pick. */
  failedStep?: number;
  /** The card that comes next (the host's pick), offered once this one no longer waits on the person. */
  next?: NextCard;
  /** This computer's clock when the Next step (for `next.id`) came into view: N waits a moment after it. */
  nextSince?: number;
}

/** What the person did in the panel that changes what it shows (presses that post are in actions.ts). */
export type Input =
  | { type: 'pick'; optionId: string; multi: boolean }
  | { type: 'edit'; field: 'text' | 'note' | 'message' | 'laterDate' | 'laterTime' | 'delegateNote'; value: string }
  | { type: 'editAsk'; askId: string; value: string }
  | { type: 'pickHelper'; assistantId: string }
  | { type: 'pickAgent'; agentId: string }
  | { type: 'pickMode'; mode: 'freely' | 'loop' }
  | { type: 'handOverForm'; open: boolean }
  /** A failure card: the person picks the step that failed. */
  | { type: 'pickStep'; index: number }
  /** A press the panel refused itself (nothing to send): said like a problem. */
  | { type: 'refused'; problem: ShownProblem }
  /** The hold's countdown reached zero. */
  | { type: 'holdOver' }
  /** A request went to the host with this id (main.ts): its reply will name it. */
  | { type: 'requested'; requestId: string; what: RequestKind };

export type PanelEvent = ToWebview | Input;

export function initialState(cardId: string, saved: unknown, timeZone: string): PanelState {
  const s = saved as { cardId?: unknown; draft?: unknown } | undefined;
  const draft = s && s.cardId === cardId && typeof s.draft === 'object' && s.draft ? (s.draft as Draft) : {};
  return { cardId, shownVersion: -1, changedSinceAnswer: false, canAct: false, timeZone, hostSkewMs: 0, pending: {}, draft, showHandOver: false, sentWords: {}, words: 0, allowed: EVERYTHING };
}

export { waitsOnYou };
/** Presses are off: signed out, high stakes, or a press on its way. */
export const disabled = (s: PanelState) => !s.canAct || s.busy !== undefined;

/**
 * The next state. `localNow` is this computer's clock (the host's clock offset is kept from the
 * card message).
 */
export function reduce(s: PanelState, e: PanelEvent, localNow: number): PanelState {
  return withNextSince(s, step(s, e, localNow), localNow);
}

/** Stamps when the Next step came into view, or another card came to be next: its key waits a moment after either. */
function withNextSince(prev: PanelState, s: PanelState, localNow: number): PanelState {
  const was = nextOffered(prev) ? prev.next?.id : undefined;
  const now = nextOffered(s) ? s.next?.id : undefined;
  if (now === undefined) return s.nextSince === undefined ? s : { ...s, nextSince: undefined };
  return now === was && s.nextSince !== undefined ? s : { ...s, nextSince: localNow };
}

/**
 * The Next step shows once the card on screen no longer waits on the person (answered, in Later,
 * handed over, closed, or gone) and nothing is on its way; never beside a form still to answer.
 */
export function nextOffered(s: PanelState): s is PanelState & { next: NextCard } {
  if (!s.next || s.busy !== undefined) return false;
  return s.gone !== undefined || (s.card !== undefined && !waitsOnYou(s.card));
}

/** When (this computer's clock) N may open the next card: a moment after the step came into view; undefined while no step shows. */
export function nextReadyAt(s: PanelState): number | undefined {
  return nextOffered(s) && s.nextSince !== undefined ? s.nextSince + ANSWER_KEYS_QUIET_MS : undefined;
}

/** Whether N (or Enter on the focused Next button) may open the next card now: offered, and for a moment already. */
export function canGoNext(s: PanelState, localNow: number): boolean {
  const at = nextReadyAt(s);
  return at !== undefined && localNow >= at;
}

function step(s: PanelState, e: PanelEvent, localNow: number): PanelState {
  switch (e.type) {
    case 'words': return { ...s, words: s.words + 1 };
    case 'card': {
      const newVersion = s.card !== undefined && s.shownVersion !== e.shownVersion;
      let draft = s.draft;
      if (e.draft && Object.keys(draft).length === 0) draft = e.draft;
      // Keep a selection only if its options still exist on the new version.
      const ids = new Set((e.card.options ?? []).map((o) => o.id));
      if (draft.choiceIds) draft = { ...draft, choiceIds: draft.choiceIds.filter((id) => ids.has(id)) };
      // Undone or taken back: the card asks again, so what was answered no longer stands. So too a
      // new version shown after a refused press (the host shows it before the refusal's reply).
      const asksAgain = waitsOnYou(e.card) && (s.busy === undefined || e.changedSinceAnswer === true) && newVersion;
      // The host dropped the hold and the card does not ask again: the hold is over (the service
      // said so on the feed, or the host's clock). The person is told who has the card now, even
      // when this panel's own clock has not yet reached the end: its offset to the host's clock is
      // off by the message's way here, and the feed brings the end within milliseconds (#53), so
      // that read often comes first, and then no tick of the countdown would tell it.
      const heldOut = s.undoUntil !== undefined && e.undoUntil === undefined && !asksAgain && !waitsOnYou(e.card);
      return {
        ...s,
        ...(heldOut ? { notice: holdOverNotice(e.card) } : {}),
        card: e.card,
        shownVersion: e.shownVersion,
        changedSinceAnswer: e.changedSinceAnswer ?? (s.changedSinceAnswer && !newVersion),
        canAct: e.canAct,
        timeZone: e.timeZone || s.timeZone,
        undoUntil: e.undoUntil,
        hostSkewMs: e.hostNowMs - localNow,
        draft,
        gone: undefined,
        sentWords: e.sentWords ?? s.sentWords,
        answered: asksAgain ? undefined : s.answered,
        allowed: e.allowed ?? EVERYTHING,
        notAllowed: e.notAllowed,
        elsewhere: e.elsewhere,
        // A pick of a step the new version no longer lists falls back to the card's mark.
        failedStep: s.failedStep !== undefined && e.card.steps?.[s.failedStep] ? s.failedStep : undefined,
      };
    }
    case 'requested': return { ...s, pending: { ...s.pending, [e.requestId]: e.what } };
    // A reply to nothing this webview asked (or asked of another kind) changes nothing.
    case 'assistants': {
      if (s.pending[e.requestId] !== 'loadAssistants') return s;
      return { ...s, pending: without(s.pending, e.requestId), assistants: e.assistants };
    }
    case 'busy': {
      const what = s.pending[e.requestId];
      if (what === undefined || what === 'loadAssistants') return s;
      return { ...s, busy: what, problem: undefined, notice: undefined };
    }
    case 'done': {
      const what = s.pending[e.requestId];
      if (what === undefined || what === 'loadAssistants') return s;
      const next: PanelState = {
        ...s, pending: without(s.pending, e.requestId), busy: undefined, notice: e.message, problem: undefined, changedSinceAnswer: false,
        answered: e.answered, shownVersion: e.version,
      };
      if (e.undoUntil) { next.undoUntil = e.undoUntil; next.hostSkewMs = e.hostNowMs - localNow; }
      if (what === 'answer' || what === 'message') next.draft = {};
      if (what === 'delegate') next.showHandOver = false;
      return next;
    }
    case 'problem': {
      if (e.requestId === undefined) return { ...s, busy: undefined, problem: e.problem, notice: undefined };
      const what = s.pending[e.requestId];
      if (what === undefined) return s;
      // The helpers' list failing leaves a press on its way as it is.
      return { ...s, pending: without(s.pending, e.requestId), busy: what === 'loadAssistants' ? s.busy : undefined, problem: e.problem, notice: undefined };
    }
    case 'gone': return { ...s, gone: e.message };
    case 'next': return { ...s, next: e.next };
    case 'guardClicks': return s; // main.ts guards the clicks; nothing to show
    case 'pick': {
      const cur = new Set(s.draft.choiceIds ?? []);
      if (e.multi) { if (cur.has(e.optionId)) cur.delete(e.optionId); else cur.add(e.optionId); } else { cur.clear(); cur.add(e.optionId); }
      return { ...s, draft: { ...s.draft, choiceIds: [...cur] } };
    }
    case 'edit': return { ...s, draft: { ...s.draft, [e.field]: e.value } };
    case 'editAsk': return { ...s, draft: { ...s.draft, answers: { ...(s.draft.answers ?? {}), [e.askId]: e.value } } };
    case 'pickHelper': return { ...s, draft: { ...s.draft, delegateAssistantId: e.assistantId, delegateAgentId: '' } };
    case 'pickAgent': return { ...s, draft: { ...s.draft, delegateAgentId: e.agentId } };
    case 'pickMode': return { ...s, draft: { ...s.draft, delegateMode: e.mode } };
    case 'handOverForm': return { ...s, showHandOver: e.open };
    case 'pickStep': return { ...s, failedStep: e.index };
    case 'refused': return { ...s, problem: e.problem };
    case 'holdOver': {
      if (!s.undoUntil) return s;
      return { ...s, undoUntil: undefined, notice: holdOverNotice(s.card) };
    }
  }
}

/** Who has the card once the 5 s hold is over. A notice has no assistant: its Got it just closes it. */
function holdOverNotice(card: PanelCard | undefined): string {
  return card?.status === 'delegated' ? t('The helper has it now.')
    : card?.kind === 'update' ? t('Got it — closed.') : t('The assistant has heard your answer.');
}

/** The host's clock (the hold's `undoUntil` is on it), from the offset its last message told. */
export const hostNow = (s: PanelState, localNow: number) => localNow + s.hostSkewMs;

/** Seconds left in the hold (0 when none). */
export const holdLeft = (s: PanelState, localNow: number) => (s.undoUntil ? secondsLeft(s.undoUntil, hostNow(s, localNow)) : 0);

function without(pending: PanelState['pending'], requestId: string): PanelState['pending'] {
  const { [requestId]: _answered, ...rest } = pending;
  return rest;
}

/** Whether the form holds enough to answer. */
export function canAnswer(s: PanelState): boolean {
  const c = s.card;
  if (!c) return false;
  const d = s.draft;
  switch (c.kind) {
    case 'choice': return (d.choiceIds?.length ?? 0) > 0;
    case 'text': return !!d.text?.trim();
    case 'questions': return (c.asks ?? []).every((a) => !!d.answers?.[a.id]?.trim());
    case 'failure': return c.options?.length ? (d.choiceIds?.length ?? 0) > 0 : true;
    default: return (d.choiceIds?.length ?? 0) > 0 || !!d.text?.trim();
  }
}

/**
 * Whether Enter may answer: the answer is complete for the card's kind, with something the
 * person chose or wrote. Stricter than the Answer button (`canAnswer`): a questions card with no
 * asks, or a failed step nobody picked, is never answered by a key that may have been meant for
 * something else; the button, pressed on purpose, still can.
 */
export function completeForEnter(s: PanelState): boolean {
  const c = s.card;
  if (!c || !canAnswer(s)) return false;
  const d = s.draft;
  switch (c.kind) {
    case 'questions': return (c.asks?.length ?? 0) > 0;
    case 'failure': return c.options?.length ? true : s.failedStep !== undefined || !!d.text?.trim();
    default: return true;
  }
}

/** A problem the banner above the title already explains (the card changed since it was seen). */
export const problemInBanner = (s: PanelState) =>
  s.changedSinceAnswer && (s.problem?.code === 'version_conflict' || s.problem?.code === 'area_change');

/**
 * What the status region says to a screen reader: only the status (sending, sent, undone,
 * answered, a problem, changed since you saw it). The card itself is read by moving through it,
 * never re-announced because a box was ticked.
 */
export function announcement(s: PanelState): string {
  if (s.gone) return s.gone;
  if (s.problem && !problemInBanner(s)) return `${s.problem.message} ${s.problem.next}`;
  if (s.changedSinceAnswer && s.card) return changedText(s.card);
  if (s.busy) return t('Sending…');
  if (s.notice) return s.notice;
  return '';
}

export const changedText = (c: PanelCard) =>
  t('This card changed after you saw it (now version {0}). Nothing was sent. Read it again and answer.', c.version);
