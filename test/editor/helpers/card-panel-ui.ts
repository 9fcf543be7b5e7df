// A card opened the way a person opens it (its row in the Cards view clicked) and what the
// assistant heard: shared by the host tests that drive the card panel through Playwright.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { heard, newCard, signInApproved, unwire, until, wire, type World } from '../cards-helpers';
import { testLog } from './test-log';
import { driver, driverAvailable } from './driver';
import { holdMs, pastOnSandbox, shortHold } from './hold';
import { intoWorkspaceScope, type WorkspaceScope } from './workspace-scope';

export const SIDEBAR = '#workbench\\.parts\\.sidebar';
/** The card panel's document: the webview's outer iframe, then its content frame. */
export const WV = ['iframe.webview.ready', 'iframe#active-frame'];

/** A selector inside the card panel. */
export const inPanel = (selector: string, timeout?: number) => ({ selector, frames: WV, ...(timeout ? { timeout } : {}) });

/** A card's row in the Cards view, by its accessible name. */
export const treeRow = (title: string) => ({ selector: `${SIDEBAR} >> role=treeitem[name=/${title.replace(/[^\w ]/g, '.')}/]`, timeout: 60_000 });

/**
 * For a whole `describe` of panel tests through Playwright (skipped without its driver): a
 * sandbox, signed in, a short hold (none of them is about the hold), in the default scope with the
 * world's agent in a terminal of this window; the editors closed and all of it undone after.
 * Returns the world, once it is up.
 */
export function panelWorld(): () => World {
  let w: World | undefined;
  let scope: WorkspaceScope | undefined;
  before(async function () {
    if (!driverAvailable()) this.skip();
    w = await wire();
    await shortHold(w.sb);
    await signInApproved(w);
    scope = await intoWorkspaceScope(w);
  });
  after(async () => {
    scope?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await unwire(w);
  });
  return () => w!;
}

/** Picks the option that starts with `text` in the panel's `select`, by keyboard, as a person does (at most ten steps down). */
export async function chooseInPanel(select: string, text: string): Promise<void> {
  for (let i = 0; i < 10; i++) {
    if ((await driver.text(inPanel(`${select} option:checked`))).startsWith(text)) return;
    await driver.press('ArrowDown', inPanel(select));
  }
  throw new Error(`${select}: no option ${text}`);
}

/** Closes every editor, then clicks the card's row until its panel is ready and shows the title. */
export async function openFromTree(w: World, cardId: string, title: string): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand('workbench.view.extension.assistantCards');
  const row = treeRow(title);
  await driver.waitFor(row);
  // A click can land while the tree redraws that row: the panel is the state to wait for. One
  // that landed on the row beside it opened that card (CI-18, 1.93: a second panel tab): it is
  // closed before the next click, as a person closes what they did not mean to open.
  for (let attempt = 1; ; attempt++) {
    await driver.click(row);
    const ready = await until('its panel', () => w.app.panels.get(cardId)?.isReady(), 10_000).catch(() => undefined);
    for (const stray of w.app.panels.all().filter((p) => p.cardId !== cardId)) stray.dispose();
    if (ready) break;
    if (attempt === 4) throw new Error(`no panel for ${cardId} after ${attempt} clicks on its row`);
  }
  await driver.waitFor(inPanel(`text=${JSON.stringify(title)}`));
}

/**
 * The one answer the assistant heard on the card (after the hold), checked to be the only one: a
 * second answer the service took would be heard one hold (the sandbox's, 5 s or a test's shorter
 * one) after it was taken, and none can be taken once the first was heard, so one hold past the
 * first on the sandbox's clock every answer that will ever be heard has been, and exactly one must
 * be there.
 */
export async function heardOnce(w: World, id: string): Promise<{ type: string; body: Record<string, unknown> }> {
  const answers = async () => (await heard(w, id)).filter((h) => h.type === 'answer');
  const first = await until('the assistant to hear the answer', async () => (await answers())[0], 60_000);
  await pastOnSandbox(w.sb, Date.parse(first.at) + await holdMs(w.sb), 'one hold past the first answer heard (sandbox clock)');
  const all = await answers();
  assert.equal(all.length, 1, `the assistant heard ${all.length} answers: ${JSON.stringify(all.map((h) => h.body))}`);
  return first;
}

/**
 * Holds the change feed back (its next three reads held 15 s each), so the person presses on the
 * version they saw: a card made ends the current long poll, then the next read must reach the
 * sandbox. Bounded at two minutes, not the kit's one: on a loaded run (3769949, quiet q1) none
 * came within 60 s; why is not known yet (the feed's pacing by its budget is the suspect), so how
 * long it took is logged.
 */
export async function holdFeedBack(w: World): Promise<void> {
  await w.sb.control('POST', '/_sandbox/faults', { path: '/v1/changes', method: 'GET', delayMs: 15_000, times: 3 });
  const other = await newCard(w, { kind: 'text', title: 'Flush the current long poll' });
  await until('the other card', () => w.app.live!.core.cards.get(other.id));
  const from = Date.now();
  await until('a held-back feed read', async () => {
    const { faults } = await w.sb.control<{ faults: { path: string; times: number }[] }>('GET', '/_sandbox/faults');
    return faults.some((f) => f.path === '/v1/changes' && f.times < 3);
  }, 120_000);
  testLog(`    (the held-back feed read came ${Date.now() - from} ms after the flush card showed)`);
}
