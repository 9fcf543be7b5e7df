// A press's words (press-words.ts) as a notification: how the palette and a card's notification
// show what a press did, with the severity and buttons the words chose, and what the button the
// person picks on it does (`runPressButton`, the one dispatch of both).
import type { Card } from '../../api/schemas';
import type { PressOutcome } from '../../sync';
import { say } from './say';
import { buttonLabel, type PressButton, type PressTold } from './press-words';
import { isActionType, type UndoAction } from '../../shared/card-actions';

/** Shows `told`; resolves to the button the person picked (undefined: dismissed). */
export async function showTold(told: PressTold): Promise<PressButton | undefined> {
  const labels = told.buttons.map(buttonLabel);
  const show = told.severity === 'error' ? say.error : told.severity === 'warning' ? say.warn : say.info;
  const picked = await show(told.message, ...labels);
  return picked === undefined ? undefined : told.buttons[labels.indexOf(picked)];
}

/** What a picked button does, in the place that pressed. */
export interface PressButtonRun {
  /**
   * Undo or Take Back: a press again, on the version the press made (it mints its own gesture:
   * the person's click on the button). Absent where neither is offered after a press.
   */
  pressAgain?(action: UndoAction, made: Card): Promise<unknown>;
  /** Open Card and Show New Version: the card's panel (the new version, when it changed). */
  openCard(id: string): void;
  /** Open in Browser: the card's page in the service (panel/open-link.ts `openCardPage`). */
  openPage(card: { id: string; url?: string | undefined }): Promise<void>;
}

/**
 * The button `picked` on the notification that told `out`, for the card as shown, run: the one
 * dispatch of the palette's and a card's notification. Undo and Take Back only after a press done;
 * Open in Browser opens the address the problem named, else the card's own.
 */
export async function runPressButton(picked: PressButton | undefined, out: PressOutcome, shown: Pick<Card, 'id' | 'url'>, run: PressButtonRun): Promise<void> {
  if (picked === undefined) return;
  // Undo, Take Back: the action that takes the hold back.
  if (isActionType(picked)) {
    if (out.ok) await run.pressAgain?.(picked, out.card);
    return;
  }
  switch (picked) {
    case 'openCard':
    case 'showNewVersion':
      run.openCard(shown.id);
      return;
    case 'openInBrowser':
      await run.openPage({ id: shown.id, url: (out.ok ? undefined : out.problem.url) ?? shown.url });
      return;
  }
}
