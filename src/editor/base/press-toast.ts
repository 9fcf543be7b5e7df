// A press's words (press-words.ts) as a notification: how the palette and a card's notification
// show what a press did, with the severity and buttons the words chose.
import { say } from './say';
import { buttonLabel, type PressButton, type PressTold } from './press-words';

/** Shows `told`; resolves to the button the person picked (undefined: dismissed). */
export async function showTold(told: PressTold): Promise<PressButton | undefined> {
  const labels = told.buttons.map(buttonLabel);
  const show = told.severity === 'error' ? say.error : told.severity === 'warning' ? say.warn : say.info;
  const picked = await show(told.message, ...labels);
  return picked === undefined ? undefined : told.buttons[labels.indexOf(picked)];
}
