// Answers through the card panel as a person gives them (Playwright under code-server), found by
// role, accessible name and visible text so the tests outlive a rewrite of the webview's markup:
// "You decide", the answer that hands the decision back to the assistant.
// Each checks what the assistant heard after the undo hold, at the sandbox.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { newCard, signInApproved, unwire, wire, type World } from './cards-helpers';
import { driver, driverAvailable } from './helpers/driver';
import { heardOnce, inPanel, openFromTree } from './helpers/card-panel-ui';


describe('answers through the card panel, by role and text (Playwright)', function () {
  this.timeout(180_000);
  let w: World | undefined;




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
    await openFromTree(w!, c.id, 'Tabs or spaces?');
    await driver.click(inPanel('role=button[name=/you decide/i]'));
    const h = await heardOnce(w!, c.id);
    assert.equal(h.body.theyDecide, true);
    assert.equal(h.body.choiceIds, undefined);
  });
});
