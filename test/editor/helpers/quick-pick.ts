// A person's way through a quick pick: wait for the row, type it into the pick's box, Enter.
import { driver } from './driver';
import { until } from '../../kit/until';
import { testLog } from './test-log';

/** The box of the quick input that shows (a quick pick's, an input box's, VS Code's own file dialog's). */
export const PICK_INPUT = '.quick-input-widget .quick-input-box input';

/** The quick pick's row holding `text` (in the pick whose title holds `title`, when given). */
export const pickRow = (text: string, title?: string) => ({
  selector: `${title ? `.quick-input-widget:has-text(${JSON.stringify(title)}) ` : ''}.quick-input-list .monaco-list-row:has-text(${JSON.stringify(text)})`,
  timeout: 30_000,
});

/**
 * Waits until the quick input's box has the keyboard (`what` names the box in the log and the
 * error). A box that shows without it is clicked into, as a person would: the keyboard can land
 * late where the step before put it (the Answers tree, behind an open pick on 1.93: CI of
 * 400aa56). A box that closed (an input box closes when the keyboard leaves) is opened again by
 * `reopen`, when given. Each is logged; after three tries the error says where the keyboard is,
 * with a picture.
 */
export async function keyboardInBox(what: string, reopen?: () => void): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await driver.waitFor({ selector: `${PICK_INPUT}:focus` });
      return;
    } catch (e) {
      const at = await driver.keyboardAt().catch(() => undefined);
      const shown = at?.quickInput?.shown === true;
      if (attempt === 3 || (!shown && !reopen)) {
        await driver.screenshot(`no-keyboard-${what.replace(/\W+/g, '-').slice(0, 30)}`).catch(() => undefined);
        throw new Error(`${what} never had the keyboard; it was at ${JSON.stringify(at)}: ${(e as Error).message}`);
      }
      testLog(`[keyboardInBox] ${what}: the keyboard was at ${JSON.stringify(at?.chain?.[0])}; ${shown ? 'clicked into the box' : 'the box closed: opened again'} (try ${attempt})`);
      if (shown) await driver.click({ selector: PICK_INPUT }).catch(() => undefined);
      else reopen!();
    }
  }
}

/**
 * Types `typed` into the quick pick that shows `row`, once that row shows and the pick's box has
 * the keyboard: keys typed while one pick gives way to the next go elsewhere, and the next pick
 * then waits for an Enter that never comes (the Answers export in CI-9: no save dialog in 60 s).
 */
export async function typeInPick(row: string, typed = row, title?: string): Promise<void> {
  await driver.waitFor(pickRow(row, title));
  await keyboardInBox(`the pick showing "${row}"`);
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
  await keyboardInBox('the command palette', () => void driver.press('F1'));
  await driver.type(typed);
  const want = `>${typed}`;
  let value = '';
  const holds = await until(`the command palette's box to hold ${JSON.stringify(want)}`, async () => {
    value = await driver.value({ selector: `${PICK_INPUT}:focus` }).catch(() => '');
    return value === want;
  }, 15_000).then(() => true, () => false);
  if (holds) return;
  // What a person does when the box shows other words: puts the right ones in. Said in the log.
  testLog(`[typeInPalette] the box held ${JSON.stringify(value)}; set to ${JSON.stringify(want)}`);
  await driver.fill({ selector: PICK_INPUT }, want);
}
