// A person's way through a quick pick: wait for the row, type it into the pick's box, Enter.
import { driver } from './driver';
import { until } from '../../kit/until';

/** The box of the quick input that shows (a quick pick's, an input box's, VS Code's own file dialog's). */
export const PICK_INPUT = '.quick-input-widget .quick-input-box input';

/** The quick pick's row holding `text` (in the pick whose title holds `title`, when given). */
export const pickRow = (text: string, title?: string) => ({
  selector: `${title ? `.quick-input-widget:has-text(${JSON.stringify(title)}) ` : ''}.quick-input-list .monaco-list-row:has-text(${JSON.stringify(text)})`,
  timeout: 30_000,
});

/**
 * Types `typed` into the quick pick that shows `row`, once that row shows and the pick's box has
 * the keyboard: keys typed while one pick gives way to the next go elsewhere, and the next pick
 * then waits for an Enter that never comes (the Answers export in CI-9: no save dialog in 60 s).
 */
export async function typeInPick(row: string, typed = row, title?: string): Promise<void> {
  await driver.waitFor(pickRow(row, title));
  try {
    await driver.waitFor({ selector: `${PICK_INPUT}:focus` });
  } catch (e) {
    // Which element has the keyboard instead, and a picture: the next failure says why.
    const at = await driver.keyboardAt().catch(() => undefined);
    await driver.screenshot(`pick-without-keyboard-${row.replace(/\W+/g, '-').slice(0, 30)}`).catch(() => undefined);
    throw new Error(`the pick showing "${row}" never had the keyboard; it was at ${JSON.stringify(at)}: ${(e as Error).message}`);
  }
  await driver.type(typed);
}

/** `typeInPick`, then Enter: the row is picked. */
export async function pick(row: string, title?: string): Promise<void> {
  await typeInPick(row, row, title);
  await driver.press('Enter');
}

/**
 * F1, then `typed` into the command palette once its box has the keyboard, and the box then holds
 * `>typed` whole. Keys typed while the palette opens go to what had the keyboard before (a tree's
 * type-to-find): the palette then lists every command and the row looked for is far below
 * (CI of 37e1979: "Assistant Cards: Later" not seen in 15 s).
 */
export async function typeInPalette(typed: string): Promise<void> {
  await driver.press('F1');
  try {
    await driver.waitFor({ selector: `${PICK_INPUT}:focus` });
  } catch (e) {
    const at = await driver.keyboardAt().catch(() => undefined);
    await driver.screenshot('palette-without-keyboard').catch(() => undefined);
    throw new Error(`the command palette never had the keyboard; it was at ${JSON.stringify(at)}: ${(e as Error).message}`);
  }
  await driver.type(typed);
  const want = `>${typed}`;
  let value = '';
  const holds = await until(`the command palette's box to hold ${JSON.stringify(want)}`, async () => {
    value = await driver.value({ selector: `${PICK_INPUT}:focus` }).catch(() => '');
    return value === want;
  }, 15_000).then(() => true, () => false);
  if (holds) return;
  // What a person does when the box shows other words: puts the right ones in. Said in the log.
  console.log(`[typeInPalette] the box held ${JSON.stringify(value)}; set to ${JSON.stringify(want)}`);
  await driver.fill({ selector: PICK_INPUT }, want);
}
