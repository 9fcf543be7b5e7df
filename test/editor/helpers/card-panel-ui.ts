// A card opened the way a person opens it (its row in the Cards view clicked) and what the
// assistant heard: shared by the host tests that drive the card panel through Playwright.
import * as vscode from 'vscode';
import { heard, until, type World } from '../cards-helpers';
import { driver } from './driver';

export const SIDEBAR = '#workbench\\.parts\\.sidebar';
/** The card panel's document: the webview's outer iframe, then its content frame. */
export const WV = ['iframe.webview.ready', 'iframe#active-frame'];

/** A selector inside the card panel. */
export const inPanel = (selector: string, timeout?: number) => ({ selector, frames: WV, ...(timeout ? { timeout } : {}) });

/** A card's row in the Cards view, by its accessible name. */
export const treeRow = (title: string) => ({ selector: `${SIDEBAR} >> role=treeitem[name=/${title.replace(/[^\w ]/g, '.')}/]`, timeout: 60_000 });

/** Closes every editor, then clicks the card's row until its panel is ready and shows the title. */
export async function openFromTree(w: World, cardId: string, title: string): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand('workbench.view.extension.assistantCards');
  const row = treeRow(title);
  await driver.waitFor(row);
  // A click can land while the tree redraws that row: the panel is the state to wait for.
  for (let attempt = 1; ; attempt++) {
    await driver.click(row);
    const ready = await until('its panel', () => w.app.panels.get(cardId)?.isReady(), 10_000).catch(() => undefined);
    if (ready) break;
    if (attempt === 4) throw new Error(`no panel for ${cardId} after ${attempt} clicks on its row`);
  }
  await driver.waitFor(inPanel(`text=${JSON.stringify(title)}`));
}

/** What the assistant heard first on the card, once it heard anything (after the hold). */
export async function heardOnce(w: World, id: string): Promise<{ type: string; body: Record<string, unknown> }> {
  const all = await until('the assistant to hear the answer', async () => {
    const x = await heard(w, id);
    return x.length ? x : undefined;
  }, 60_000);
  return all[0]!;
}
