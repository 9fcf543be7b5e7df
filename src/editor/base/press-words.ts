// What the person is told after a press, wherever they pressed: the card panel, the command palette
// or a card's notification all turn the core's PressOutcome into words and buttons here, so the
// three say the same thing and offer the same next step (docs/decisions.md "#39"). The panel shows
// the card beside its words; a notification shows them alone, so there they name the card.
import * as vscode from 'vscode';
import type { PressOutcome } from '../../sync';
import { actionRow, isActionType, type PressContext, type PressSurface, type UndoAction } from '../../shared/card-actions';
import { problemMessage, problemText } from '../../shared/problem-messages';
import type { ShownProblem } from '../../shared/protocol';

export type { PressContext, PressSurface } from '../../shared/card-actions';

/**
 * What may be offered after a press; each place runs them its own way (a press, opening the card).
 * Undo and Take Back are the actions that take a hold back (their rows' `undoneBy`).
 */
export type PressButton = UndoAction | 'openCard' | 'openInBrowser' | 'showNewVersion';

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
  if (isActionType(b)) return actionRow(b).button?.() ?? b;
  switch (b) {
    case 'openCard': return vscode.l10n.t('Open Card');
    case 'openInBrowser': return vscode.l10n.t('Open in Browser');
    case 'showNewVersion': return vscode.l10n.t('Show New Version');
  }
}

/** A press done, in its row's words (shared/card-actions.ts `done`). */
function doneWords(out: Done, ctx: PressContext): DoneTold {
  const row = actionRow(out.action);
  // While the hold runs the press can be taken back, by the action its row names (Undo, Take Back).
  const undoneBy = row.undoneBy as UndoAction | undefined;
  const buttons: PressButton[] = undoneBy && out.holdUntil !== undefined && out.holdUntil > ctx.now ? [undoneBy] : [];
  if (ctx.surface === 'toast') return { ok: true, severity: 'info', message: row.done.toast(out, ctx), buttons };
  const said = row.done.said?.(out, ctx);
  return { ok: true, severity: 'info', message: row.done.panel(), ...(said ? { said } : {}), buttons };
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
