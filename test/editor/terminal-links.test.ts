// Card ids printed in a real terminal are links: VS Code's own "Open Detected Link..." lists the
// id the extension's provider found, and following it opens that card's panel (nothing else).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { newCard, signInApproved, unwire, until, wire, type World } from './cards-helpers';
import { driver, driverAvailable } from './helpers/driver';

describe('card ids in terminals are links', function () {
  this.timeout(120_000);
  let w: World | undefined;
  let terminal: vscode.Terminal | undefined;

  after(async () => {
    terminal?.dispose();
    await unwire(w);
  });

  it('a req_ id printed in a terminal opens its card', async function () {
    if (!driverAvailable()) this.skip();
    w = await wire();
    await signInApproved(w);
    const card = await newCard(w, { kind: 'choice', title: 'Linked from a terminal', options: [{ id: 'a', label: 'A' }] });
    terminal = vscode.window.createTerminal({ name: 'card links' });
    terminal.show();
    terminal.sendText(`echo "demo asks (choice): Linked from a terminal  [${card.id}]"`);
    const row = { selector: '.quick-input-list .monaco-list-row', timeout: 5_000 };
    await until('the terminal link listed by Open Detected Link', async () => {
      await vscode.commands.executeCommand('workbench.action.terminal.openDetectedLink');
      const rows = await driver.texts(row).catch(() => [] as string[]);
      if (rows.some((r) => r.includes(card.id))) return true;
      await driver.press('Escape');
      return false;
    }, 60_000);
    await driver.screenshot('terminal-card-link');
    await driver.type(card.id);
    await driver.press('Enter');
    const panel = await until('the card panel opened', () => w!.app.live?.panels.all().find((p) => p.cardId === card.id), 20_000);
    assert.ok(panel);
    const { heard } = await w.sb.control<{ heard: unknown[] }>('GET', `/_sandbox/cards/${card.id}/heard`);
    assert.deepEqual(heard, [], 'following the link answered nothing');
  });
});
