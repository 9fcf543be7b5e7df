// The Cards view's scope button (its icon shows the scope in force) opens one pick of the three
// scopes: this window's terminals, this computer, every computer. `everywhere` needs a sign-in
// allowed cards:read:all (grant.ts offers it); leaving it offers to give that back (grant.ts too).
import * as vscode from 'vscode';
import type { ScopeSetting } from './card-scope';
import { scopeSetting } from './card-scope';
import { scopeWords, EVERY_CARD_SCOPE } from '../../shared/grant-scopes';

interface ScopeItem extends vscode.QuickPickItem { scope: ScopeSetting }

/** The three scopes, the one in force first in focus; undefined on Esc. */
export async function pickScope(): Promise<ScopeSetting | undefined> {
  const now = scopeSetting();
  const inForce = vscode.l10n.t('(in force)');
  const items: ScopeItem[] = [
    { scope: 'workspace', iconPath: new vscode.ThemeIcon('window'), label: vscode.l10n.t('This window\'s cards'), detail: vscode.l10n.t('The cards of the assistants running in this window\'s terminals.') },
    { scope: 'machine', iconPath: new vscode.ThemeIcon('vm'), label: vscode.l10n.t('This computer\'s cards'), detail: vscode.l10n.t('Every card of this computer\'s assistants.') },
    { scope: 'everywhere', iconPath: new vscode.ThemeIcon('globe'), label: vscode.l10n.t('Every computer\'s cards'), detail: vscode.l10n.t('Every card of all your computers. The sign-in must be allowed to {0}.', scopeWords(EVERY_CARD_SCOPE)) },
  ];
  for (const i of items) if (i.scope === now) i.description = inForce;
  const qp = vscode.window.createQuickPick<ScopeItem>();
  qp.title = vscode.l10n.t('Which cards should the Cards view show?');
  qp.items = items;
  qp.activeItems = items.filter((i) => i.scope === now);
  try {
    return await new Promise<ScopeSetting | undefined>((resolve) => {
      qp.onDidAccept(() => { resolve((qp.selectedItems[0] ?? qp.activeItems[0])?.scope); qp.hide(); });
      qp.onDidHide(() => resolve(undefined));
      qp.show();
    });
  } finally {
    qp.dispose();
  }
}
