// Answers through the card panel as a person gives them (Playwright under code-server), found by
// role, accessible name and visible text so the tests outlive a rewrite of the webview's markup:
// "You decide", the answer that hands the decision back to the assistant.
// Each checks what the assistant heard after the undo hold, at the sandbox.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { heard, newCard, signInApproved, unwire, until, wire, type World } from './cards-helpers';
import { driver, driverAvailable } from './helpers/driver';

const SIDEBAR = '#workbench\\.parts\\.sidebar';
/** The card panel's document: the webview's outer iframe, then its content frame. */
const WV = ['iframe.webview.ready', 'iframe#active-frame'];

describe('answers through the card panel, by role and text (Playwright)', function () {
  this.timeout(180_000);
  let w: World | undefined;

  const inPanel = (selector: string) => ({ selector, frames: WV });
  const app = () => w!.app;

  async function openOnly(cardId: string, title: string): Promise<void> {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.view.extension.assistantCards');
    const row = { selector: `${SIDEBAR} >> role=treeitem[name=/${title.replace(/[^\w ]/g, '.')}/]`, timeout: 60_000 };
    await driver.waitFor(row);
    // A click can land while the tree redraws that row: the panel is the state to wait for.
    for (let attempt = 1; ; attempt++) {
      await driver.click(row);
      const ready = await until('its panel', () => app().live!.panels.get(cardId)?.isReady(), 10_000).catch(() => undefined);
      if (ready) break;
      if (attempt === 4) throw new Error(`no panel for ${cardId} after ${attempt} clicks on its row`);
    }
    await driver.waitFor(inPanel(`text=${JSON.stringify(title)}`));
  }

  const heardOnce = async (id: string) => (await until('the assistant to hear the answer', async () => {
    const x = await heard(w!, id);
    return x.length ? x : undefined;
  }, 60_000))[0]!;

  before(async function () {
    if (!driverAvailable()) this.skip();
    w = await wire();
    await signInApproved(w);
  });
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await unwire(w);
  });

  it('"You decide" hands the decision back to the assistant', async () => {
    const c = await newCard(w!, { kind: 'choice', title: 'Tabs or spaces?', options: [{ id: 't', label: 'Tabs' }, { id: 's', label: 'Spaces' }] });
    await openOnly(c.id, 'Tabs or spaces?');
    await driver.click(inPanel('role=button[name=/you decide/i]'));
    const h = await heardOnce(c.id);
    assert.equal(h.body.theyDecide, true);
    assert.equal(h.body.choiceIds, undefined);
  });
});
