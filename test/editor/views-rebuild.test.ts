// The views after a new service address (changing assistantCards.baseUrl; "Start Local Sandbox"
// takes the same path): the client core is built again, and the Cards and Assistants views must
// show the new core's rows. On VS Code 1.93 a TreeView made again for the same view id stayed
// blank (no rows, no welcome) while the badge counted the cards; seen here through the workbench,
// in the default scope (each address's assistant live in a terminal of this window).
import * as vscode from 'vscode';
import { newCard, signInApproved, unwire, wire, type World } from './cards-helpers';
import { driver, driverAvailable } from './helpers/driver';
import { intoWorkspaceScope } from './helpers/workspace-scope';

const SIDEBAR = '#workbench\\.parts\\.sidebar';
const row = (text: string) => ({ selector: `${SIDEBAR} .monaco-list-row:has-text(${JSON.stringify(text)})`, timeout: 60_000 });

describe('views after a new service address (Playwright)', function () {
  this.timeout(240_000);
  const worlds: World[] = [];
  /** Each address's default scope (workspace): its assistant live in a terminal of this window. */
  const scopes = new Map<World, vscode.Disposable>();
  const unwireOne = async (w: World | undefined) => {
    if (w) scopes.get(w)?.dispose();
    await unwire(w);
  };

  before(function () {
    if (!driverAvailable()) this.skip();
  });
  after(async () => {
    for (const w of worlds.reverse()) await unwireOne(w);
  });

  async function signedInWithCard(title: string): Promise<World> {
    const w = await wire();
    worlds.push(w);
    await signInApproved(w);
    scopes.set(w, await intoWorkspaceScope(w));
    await newCard(w, {
      kind: 'choice', title, summary: 'Asked at this address.', options: [{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }], blocking: true, urgency: 'today',
    });
    return w;
  }

  it('shows the card rows and the assistants of each address the extension is pointed at', async () => {
    await signedInWithCard('Card at the first address');
    await vscode.commands.executeCommand('workbench.view.extension.assistantCards');
    await driver.waitFor(row('Card at the first address'));
    // A second sandbox: a new baseUrl, so the extension builds its client core again.
    await signedInWithCard('Card at the second address');
    await driver.waitFor(row('Card at the second address'));
    await driver.waitFor(row('Claude'));
    // And a third time, back to no service and then to a new one (the "not set up" path between).
    await unwireOne(worlds.pop());
    await signedInWithCard('Card at the third address');
    await driver.waitFor(row('Card at the third address'));
  });
});
