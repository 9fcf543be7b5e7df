// Every word of ours in the person's language: this window runs with VS Code's display language
// set to the pseudo-locale qps-ploc (scripts/host-test.mjs --window pseudo; the bundles come from
// scripts/l10n-pseudo.mjs, each message ⟦áççéñţéď⟧). The tree, the status bar, a notification and
// the card panel are read as a person sees them: any plain English word left is one of ours that
// bypassed l10n (a glued fragment, a literal). The service's own text (card titles, option labels,
// the names of the assistant, agent and computer) is exempt by name; the titles are Greek. The
// default scope: the assistant runs in a terminal of this window (its name Greek too).
// Screenshots: artifacts/pseudo-*.png.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { atThisWindow, newCard, signInApproved, unwire, until, wire, type World } from './cards-helpers';
import { driver, driverAvailable } from './helpers/driver';
import { notificationItem } from './helpers/notifications';
import { intoWorkspaceScope, type WorkspaceScope } from './helpers/workspace-scope';

const SIDEBAR = '#workbench\\.parts\\.sidebar';
const WV = ['iframe.webview.ready', 'iframe#active-frame'];
const TITLE = 'Ποια βάση δεδομένων;';
/** The name of the terminal the assistant runs in: the person's, not ours. */
const TERMINAL = 'τερματικό';
/** The person's own words on screen: the terminal's folder (the session's cwd, in the Assistants view). */
const PERSONS_TEXT: string[] = [];
/** What the service says, shown as it came: not ours to translate. */
const SERVICE_TEXT = [TITLE, 'Πρώτη', 'Δεύτερη', 'Η υπηρεσία χρειάζεται αποθήκη.', 'Claude Code', 'claude-code', 'Claude', 'host-test computer', 'main'];
/**
 * The product's name stays (VS Code's convention); Intl's date for a locale it lacks falls back to
 * English AM/PM; the person's time zone is shown by its IANA id (`UTC`, `Europe/Berlin`).
 */
const NOT_WORDS = [/Assistant Cards/g, /\b[AP]M\b/g, new RegExp(Intl.DateTimeFormat().resolvedOptions().timeZone.replace(/[^\w/]/g, '\\$&'), 'g')];

/** The plain English words left in `text` once the service's text and the exempt names are out. */
function englishIn(text: string): string[] {
  let rest = text;
  for (const s of [...SERVICE_TEXT, ...PERSONS_TEXT]) rest = rest.split(s).join(' ');
  for (const re of NOT_WORDS) rest = rest.replace(re, ' ');
  return rest.match(/[A-Za-z]{2,}/g) ?? [];
}

function assertNoEnglish(where: string, text: string): void {
  const left = englishIn(text);
  assert.deepEqual(left, [], `${where} shows plain English of ours: ${left.join(', ')}\n---\n${text}`);
}

describe('the pseudo-locale: every word of ours is translated (qps-ploc window)', function () {
  this.timeout(240_000);
  let w: World | undefined;
  /** The default scope a person gets (workspace): the card's assistant live in this window's terminal. */
  let workspaceScope: WorkspaceScope | undefined;

  before(async function () {
    if (!driverAvailable()) this.skip();
    w = await wire();
    await signInApproved(w);
    workspaceScope = await intoWorkspaceScope(w, [w.agentId], TERMINAL);
    PERSONS_TEXT.push(path.basename(String((workspaceScope.terminal.creationOptions as vscode.TerminalOptions).cwd)));
  });
  after(async () => {
    workspaceScope?.dispose();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('notifications.clearAll');
    await unwire(w);
  });

  it('runs in qps-ploc: the tree, the status bar, a notification and the panel show no plain English of ours', async () => {
    assert.equal(vscode.env.language, 'qps-ploc', 'VS Code\'s display language is the pseudo-locale');
    const app = w!.app;
    await atThisWindow();
    await vscode.commands.executeCommand('notifications.clearAll');
    const c = await newCard(w!, {
      kind: 'choice', title: TITLE, summary: 'Η υπηρεσία χρειάζεται αποθήκη.', blocking: true, urgency: 'σήμερα',
      options: [{ id: 'a', label: 'Πρώτη' }, { id: 'b', label: 'Δεύτερη' }], recommendedIds: ['a'],
    });

    // The tree: the whole side bar (our view titles, groups, the row and its description).
    await vscode.commands.executeCommand('workbench.view.extension.assistantCards');
    const row = `${SIDEBAR} .monaco-list-row:has-text(${JSON.stringify(TITLE)})`;
    await driver.waitFor({ selector: row, timeout: 60_000 });
    await until('the row says blocking', async () => /⟦ƀĺóçķíñĝ⟧/.test(await driver.text({ selector: row })));
    await driver.screenshot('pseudo-tree', { selector: SIDEBAR });
    assertNoEnglish('the side bar', await driver.text({ selector: SIDEBAR }));

    // The status bar: its count, what it says aloud and its tooltip.
    await until('the status bar count', () => /\$\(bell-dot\) 1/.test(app.status.text));
    await driver.screenshot('pseudo-status-bar', { selector: '#workbench\\.parts\\.statusbar' });
    const item = app.status.item;
    assertNoEnglish('the status bar', [item.text.replace(/\$\([^)]*\)/g, ''), String(item.tooltip), item.accessibilityInformation?.label ?? ''].join('\n'));

    // The notification for the blocking card: its words and its buttons.
    await vscode.commands.executeCommand('notifications.showList');
    const toast = notificationItem(TITLE);
    await driver.waitFor({ selector: toast, timeout: 60_000 });
    await driver.screenshot('pseudo-notification', { selector: '.notifications-center' });
    assertNoEnglish('the notification', [
      await driver.text({ selector: `${toast} .notification-list-item-message` }),
      ...(await driver.texts({ selector: `${toast} .monaco-button` })),
    ].join('\n'));
    await vscode.commands.executeCommand('notifications.hideList');

    // The card panel: the whole page, dates in the display language.
    app.openCard(c.id);
    await until('its panel', () => app.panels.get(c.id)?.isReady());
    await driver.waitFor({ selector: '#title', frames: WV });
    await driver.waitFor({ selector: '.badge.rec', frames: WV });
    await driver.screenshot('pseudo-panel');
    assertNoEnglish('the card panel', await driver.text({ selector: 'body', frames: WV }));
  });
});
