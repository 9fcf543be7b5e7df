// What the person is told after a press, wherever they pressed: the card panel, the command palette
// or a card's notification all turn the core's PressOutcome into words and buttons here, so the
// three say the same thing and offer the same next step (docs/decisions.md "#39"). The panel shows
// the card beside its words; a notification shows them alone, so there they name the card.
import * as vscode from 'vscode';
import type { Card } from '../../api/schemas';
import type { ActionType, PressOutcome } from '../../sync';
import { hearsIn } from '../../shared/format';
import { hearsWords } from '../../shared/hand-over';
import { answeredText } from '../../shared/notify-rules';
import { plainText } from '../../shared/plain-text';
import { problemMessage, problemText } from '../../shared/problem-messages';
import type { ShownProblem } from '../../shared/protocol';

/** What may be offered after a press; each place runs them its own way (a press, opening the card). */
export type PressButton = 'undo' | 'takeBack' | 'openCard' | 'openInBrowser' | 'showNewVersion';

/** `panel`: the words go over the card the panel shows. `toast`: a notification, the card not in sight. */
export type PressSurface = 'panel' | 'toast';

export interface PressContext {
  /** The card as the person was shown it when they pressed. */
  shown: Pick<Card, 'title'>;
  surface: PressSurface;
  /** What was sent, in words: the answer (its summary, or the button's label) or the words written. */
  said?: string;
  /** The helper a hand-over named (blank: "The helper"). */
  helperName?: string;
  /** This computer's clock now, for "hears it in N s". */
  now: number;
}

interface ToldBase {
  /** One line: what the press did, or what went wrong and what to do next. */
  message: string;
  /**
   * The next steps offered. The panel's webview draws its own from the card it is sent (Undo from
   * the hold, the new version shown at once): there they are what it shows, not buttons to add.
   */
  buttons: readonly PressButton[];
}

/** A press that went through: info, with the panel's second line (what was sent, in words: the answer, the words written, when the helper hears it). */
export interface DoneTold extends ToldBase {
  ok: true;
  severity: 'info';
  said?: string;
  problem?: never;
}

/** A failed press, always with the problem as the panel shows it (what happened, what next, the service's words). */
export interface FailedTold extends ToldBase {
  ok: false;
  severity: 'warning' | 'error';
  said?: never;
  problem: ShownProblem;
}

/** What the person is told after a press: a press's outcome and its telling agree on `ok`. */
export type PressTold = DoneTold | FailedTold;

type Done = Extract<PressOutcome, { ok: true }>;
type Failed = Extract<PressOutcome, { ok: false }>;

/** The one function: a press's outcome as it is told and what is offered after it. */
export function pressWords(out: Done, ctx: PressContext): DoneTold;
export function pressWords(out: Failed, ctx: PressContext): FailedTold;
export function pressWords(out: PressOutcome, ctx: PressContext): PressTold;
export function pressWords(out: PressOutcome, ctx: PressContext): PressTold {
  return out.ok ? doneWords(out, ctx) : problemWords(out.problem, ctx.surface);
}

/** A button's words. */
export function buttonLabel(b: PressButton): string {
  switch (b) {
    case 'undo': return vscode.l10n.t('Undo');
    case 'takeBack': return vscode.l10n.t('Take Back');
    case 'openCard': return vscode.l10n.t('Open Card');
    case 'openInBrowser': return vscode.l10n.t('Open in Browser');
    case 'showNewVersion': return vscode.l10n.t('Show New Version');
  }
}

/** The panel's words for each action done: short, the card is in sight. A new action adds its line. */
const PANEL_DONE = (): Record<ActionType, string> => ({
  answer: vscode.l10n.t('Answered.'),
  gotIt: vscode.l10n.t('Got it — closed.'),
  undo: vscode.l10n.t('Undone: the card waits on you again.'),
  message: vscode.l10n.t('Sent to the assistant.'),
  later: vscode.l10n.t('Put in Later.'),
  back: vscode.l10n.t('Back in the stack.'),
  delegate: vscode.l10n.t('Handed over.'),
  takeBack: vscode.l10n.t('Taken back: it waits on you again.'),
});

/** A notification's words for each action done: it names the card, which is not in sight. */
function toastDone(out: Done, ctx: PressContext): string {
  const title = plainText(ctx.shown.title, 60);
  const left = hearsIn(out.holdUntil, ctx.now);
  switch (out.action) {
    case 'answer': return ctx.said
      ? vscode.l10n.t('Assistant Cards: {0}', answeredText(ctx.shown, ctx.said, left))
      : vscode.l10n.t('Assistant Cards: answered "{0}". The assistant hears it in {1} s.', title, left);
    case 'gotIt': return vscode.l10n.t('Assistant Cards: notice closed.');
    case 'undo': return vscode.l10n.t('Assistant Cards: undone; the card waits on you again.');
    case 'message': return vscode.l10n.t('Assistant Cards: sent to the assistant.');
    case 'later': {
      const until = out.result.until ?? out.card.until;
      return vscode.l10n.t('Assistant Cards: in Later until {0}.', until ? new Date(until).toLocaleString() : '');
    }
    case 'back': return vscode.l10n.t('Assistant Cards: back in the stack.');
    // The words that matter first: a notification shows about 100 characters.
    case 'delegate': return vscode.l10n.t('Assistant Cards: {0} Handed over: "{1}".', hearsWords(out.result.hears, ctx.helperName ?? ''), title);
    case 'takeBack': return vscode.l10n.t('Assistant Cards: taken back; it waits on you again.');
  }
}

function doneWords(out: Done, ctx: PressContext): DoneTold {
  // While the hold runs the press can be taken back: a hand-over by Take Back, the rest by Undo.
  const buttons: PressButton[] = out.holdUntil !== undefined && out.holdUntil > ctx.now ? [out.action === 'delegate' ? 'takeBack' : 'undo'] : [];
  if (ctx.surface === 'toast') return { ok: true, severity: 'info', message: toastDone(out, ctx), buttons };
  const said = out.action === 'delegate' ? hearsWords(out.result.hears, ctx.helperName ?? '')
    : out.action === 'message' && ctx.said ? vscode.l10n.t('You wrote: {0}', ctx.said)
      : out.action === 'answer' ? ctx.said : undefined;
  return { ok: true, severity: 'info', message: PANEL_DONE()[out.action], ...(said ? { said } : {}), buttons };
}

/** The card changed since the person saw it: nothing was sent; they look at the new version and choose again. */
export const isChangedUnderfoot = (code: string): boolean => code === 'version_conflict' || code === 'area_change';

function problemWords(p: Failed['problem'], surface: PressSurface): FailedTold {
  const problem = problemMessage(p.code, p);
  const changed = isChangedUnderfoot(p.code);
  const buttons: PressButton[] = changed ? ['showNewVersion'] : p.code === 'high_stakes' ? ['openInBrowser'] : p.code === 'cancelled' ? [] : ['openCard'];
  const severity = changed || p.code === 'high_stakes' ? 'warning' : 'error';
  const message = surface === 'toast' ? vscode.l10n.t('Assistant Cards: {0}', problemText(problem)) : problem.message;
  return { ok: false, severity, message, buttons, problem };
}
