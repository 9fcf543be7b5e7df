// Card ids printed in any terminal (`req_...`: the demo assistant prints them, and so may an
// assistant's own output) are links: following one opens the card, and does nothing else.
import * as vscode from 'vscode';
import { CARD_ID_IN_TEXT } from '../../shared/card-facts';

interface CardLink extends vscode.TerminalLink {
  cardId: string;
}

export function cardIdsIn(line: string): { index: number; id: string }[] {
  return [...line.matchAll(CARD_ID_IN_TEXT)].map((m) => ({ index: m.index, id: m[0] }));
}

export function registerCardLinks(openCard: (id: string) => void): vscode.Disposable {
  const provider: vscode.TerminalLinkProvider<CardLink> = {
    provideTerminalLinks: (context) =>
      cardIdsIn(context.line).map(({ index, id }) => ({ startIndex: index, length: id.length, tooltip: vscode.l10n.t('Open the card'), cardId: id })),
    handleTerminalLink: (link) => openCard(link.cardId),
  };
  return vscode.window.registerTerminalLinkProvider(provider);
}
