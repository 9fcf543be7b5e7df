// Links into the editor: `vscode://assistant-cards.assistant-cards/card?id=req_…` (from the phone,
// the service's card page, a chat) opens that card's panel here. It only opens: no press, no
// answer; the panel then shows the card as the service has it (or says it is gone), without taking
// the keyboard, its clicks guarded for a moment: any web page or local program can fire a link,
// so the person did not necessarily follow one (#37). A link that
// names no card is told plainly; the link's text is never shown (anyone can write one).
import * as vscode from 'vscode';
import { say } from '../base/say';
import type { Log } from '../base/log';
import { readCardLink } from '../../shared/card-link';

/** What a link did: the card's panel opened, or why not. */
export type CardLinkOutcome = 'opened' | 'bad-id' | 'unknown' | 'signed-out';

export interface CardUriDeps {
  log: Log;
  signedIn: () => boolean;
  /**
   * Opens (or shows) the card's panel without the keyboard, clicks guarded for a moment: any web
   * page or local program can fire a link, so the person did not necessarily open it.
   */
  openCard: (id: string, opts: { preserveFocus: true }) => void;
  /** The sign-in flow; resolves once it ended (signed in or not). */
  signIn: () => Promise<unknown>;
}

export class CardUriHandler {
  constructor(private readonly deps: CardUriDeps) {}

  /** Registers the handler VS Code calls for every link to this extension (one per extension). */
  register(): vscode.Disposable {
    return vscode.window.registerUriHandler({ handleUri: (uri) => { void this.follow(uri); } });
  }

  /** Follows one link; the outcome is for tests (the person is told by a message). */
  follow(uri: vscode.Uri): Promise<CardLinkOutcome> {
    return this.handle(uri).catch((e: unknown) => { this.deps.log.error(`card link: ${String(e)}`); return 'unknown' as const; });
  }

  private async handle(uri: vscode.Uri): Promise<CardLinkOutcome> {
    const read = readCardLink(uri.path, uri.query);
    if (read.kind === 'unknown') {
      this.deps.log.warn('card link: a link to this extension that is not a card link was ignored');
      void say.error(vscode.l10n.t('Assistant Cards: this link is not one Assistant Cards opens. A card link looks like vscode://assistant-cards.assistant-cards/card?id=req_…'));
      return 'unknown';
    }
    if (read.kind === 'bad-id') {
      this.deps.log.warn('card link: refused a card link without a valid card id');
      void say.error(vscode.l10n.t('Assistant Cards: this card link names no card. Its id must start with req_ followed by letters, digits or dashes; nothing was opened.'));
      return 'bad-id';
    }
    this.deps.log.info(`card link: opening ${read.id}`);
    if (this.deps.signedIn()) { this.deps.openCard(read.id, { preserveFocus: true }); return 'opened'; }
    // Not signed in: say so and offer the sign-in; the card opens once it is done.
    const signIn = vscode.l10n.t('Sign In');
    void say.info(vscode.l10n.t('Assistant Cards: sign in to open the card from this link.'), signIn).then(async (picked) => {
      if (picked !== signIn) return;
      await this.deps.signIn();
      if (this.deps.signedIn()) this.deps.openCard(read.id, { preserveFocus: true });
    });
    return 'signed-out';
  }
}
