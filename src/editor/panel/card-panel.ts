// One card panel: one webview's life, from its `ready` handshake to its close, and the messages it
// sends (typed, validated on arrival). The host owns every request; the webview only renders. Its
// parts: the order it keeps (panel-order.ts), the card message (card-message.ts), a press
// (press-from-panel.ts), the next card (next-card-teller.ts), the hand-over's helpers
// (hand-over-helpers.ts). The registry and the serializer are card-panel-manager.ts; drafts and
// sent words panel-memory.ts.
import * as vscode from 'vscode';
import type { Card } from '../../api/schemas';
import type { ClientCore, UserGesture } from '../../sync';
import type { ContextKeys } from '../context-keys';
import { DisposableBase } from '../base/disposable';
import type { PanelMemory } from './panel-memory';
import type { Log } from '../base/log';
import { plainText } from '../../shared/plain-text';
import { markLookAlikes } from '../../shared/look-alike-words';
import { problemMessage } from '../../shared/problem-messages';
import type { FromWebview, ToWebview } from '../../shared/protocol';
import { isActionType, parseFromWebview, safeExternalUrl } from '../../shared/protocol';
import { panelHtml } from './panel-html';
import { openCardLink } from './open-link';
import type { Allowed } from '../../shared/grant-scopes';
import type { NextCard } from '../../shared/next-card';
import { cardMessage } from './card-message';
import { PanelOrder } from './panel-order';
import { NextCardTeller } from './next-card-teller';
import { pressFromPanel, type ShowCard } from './press-from-panel';
import { helpersReply } from './hand-over-helpers';
import type { PanelReply } from './panel-reply';

export type { PanelReply } from './panel-reply';

export interface PanelDeps {
  core: ClientCore;
  log: Log;
  extensionUri: vscode.Uri;
  /** Drafts and sent words, kept in the workspace's state (panel-memory.ts). */
  memory: PanelMemory;
  /** The window's context keys (the walkthrough's "answered"). */
  contextKeys: ContextKeys;
  timeZone: () => string;
  /** Whether actions may be sent now (signed in). */
  online: () => boolean;
  /** What the sign-in's scopes allow (default: everything). */
  allowed?: () => Allowed;
  /**
   * "Go to terminal": the assistants feature shows the terminal the card's assistant runs in, or
   * says where it runs when that is another computer (assistants-feature.ts focusTerminalForCard).
   */
  focusTerminal: (card: Card | { id: string }) => Promise<unknown>;
  /** The card that comes next after this one (shared/next-card.ts), from the cards the tree lists. */
  nextAfter: (cardId: string) => NextCard | undefined;
  /** Opens `cardId` in this panel's place (card-panel-manager.ts): the person pressed Next. */
  openNext: (from: CardPanel, cardId: string) => void;
  /** This computer's id as the sign-in names it: a card asked on another computer offers no terminal. */
  thisComputer?: () => string | undefined;
}

export class CardPanel extends DisposableBase {
  private card: Card | undefined;
  /** Ready, one read and one press at a time, the versions shown, released (panel-order.ts). */
  private readonly order = new PanelOrder();
  /** Aborted when the panel closes: the person moved on, the press being sent retries no more. */
  private readonly movedOn = new AbortController();
  /** The panel appeared without the person opening it: its webview guards clicks once it is ready. */
  private unasked = false;
  /** Whether the connection was online when the card was last shown (canAct follows it). */
  private shownOnline: boolean | undefined;
  private readonly next: NextCardTeller;
  private readonly closed = this._register(new vscode.EventEmitter<void>());
  /** Fires once, when the panel closes (by the person, Esc, or its live set ending). */
  readonly onDidClose = this.closed.event;

  constructor(readonly cardId: string, readonly panel: vscode.WebviewPanel, private readonly deps: PanelDeps) {
    super();
    this.next = new NextCardTeller(() => deps.nextAfter(cardId), () => this.order.ready && !this.isDisposed,
      (next) => this.post(next ? { type: 'next', next } : { type: 'next' }));
    panel.iconPath = {
      light: vscode.Uri.joinPath(deps.extensionUri, 'media', 'icons', 'card-light.svg'),
      dark: vscode.Uri.joinPath(deps.extensionUri, 'media', 'icons', 'card-dark.svg'),
    };
    panel.webview.html = panelHtml(panel.webview, deps.extensionUri, cardId);
    this._register(panel.webview.onDidReceiveMessage((raw: unknown) => {
      const m = parseFromWebview(raw);
      if (!m) { deps.log.warn(`card panel: dropped a malformed message`); return; }
      // Before its `ready`, a message can only come from the document this panel showed before
      // (the last card, when Next opened this one here): it is not about this card.
      if (!this.order.ready && m.type !== 'ready') { deps.log.info(`card panel: dropped a ${m.type} from before ${cardId} loaded`); return; }
      // A message from the panel is the person's click or key: the gesture is minted right here.
      const gesture = isActionType(m.type) ? deps.core.gestures.fromUiEvent(`panel:${m.type}`) : undefined;
      void this.onMessage(m, gesture).catch((e: unknown) => deps.log.error(`card panel: ${String(e)}`));
    }));
    this._register(panel.onDidDispose(() => this.dispose()));
    this.queueLoad({ from: 'service' });
  }

  override dispose(): void {
    if (this.isDisposed) return;
    this.movedOn.abort();
    this.closed.fire();
    super.dispose();
    if (!this.order.released) this.panel.dispose();
  }

  /**
   * Lets go of the webview panel without closing it: the person moved on to the next card, which
   * the manager opens in the same panel. This card's part ends here (a press on its way stops retrying).
   */
  release(): vscode.WebviewPanel {
    this.order.released = true;
    this.dispose();
    return this.panel;
  }

  /** The cards waiting changed: tell the webview which card comes next, when that changed (once for the changes of one read). */
  nextChanged(): void {
    this.next.changed();
  }

  /** Whether the panel offers its actions now: signed in, and the card not high stakes (those are answered only in the service). */
  canAct(): boolean {
    return !!this.card && !this.card.highStakes && this.deps.online();
  }

  /** The card as the panel last showed it. */
  shown(): Card | undefined { return this.card; }
  isReady(): boolean { return this.order.ready; }

  /** The panel appears without the person opening it: a click in it lands on nothing for a moment (now, or once it is ready). */
  guardClicks(): void {
    this.unasked = true;
    if (this.order.ready) this.post({ type: 'guardClicks' });
  }

  /** The connection changed: show the card again with what may be done now (or read it, if never read). */
  connectionChanged(): void {
    const online = this.deps.online();
    if (online === this.shownOnline) return;
    if (!this.card) { if (online) this.cardChanged(); return; }
    if (this.order.ready) this.postCard();
  }

  /** The model says the card changed (or went): show the card as it holds it now; read only when it holds no whole form (one load at a time). */
  cardChanged(): void {
    this.queueLoad({ from: 'model' });
  }

  private queueLoad(how: { from: 'model' | 'service' }): void {
    this.order.queueRead(() => this.load(how), () => this.cardChanged());
  }

  /**
   * Shows `card` when given; else the card `from` the model (its whole form, read only when it
   * holds none) or the service (the person's read: on opening, and after a refused press).
   */
  private async load(how: ShowCard): Promise<void> {
    const changedSinceAnswer = how.changedSinceAnswer ?? false;
    try {
      const cards = this.deps.core.cards;
      const card = how.card ?? await (how.from === 'model' ? cards.whole(this.cardId) : cards.read(this.cardId));
      if (this.isDisposed) return;
      this.card = card;
      this.panel.title = plainText(markLookAlikes(card.title), 40) || vscode.l10n.t('Card');
      if (this.order.ready) this.postCard(changedSinceAnswer);
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === 'not_found') this.post({ type: 'gone', message: problemMessage('not_found').message });
      else {
        this.deps.log.warn(`card panel: reading ${this.cardId} failed: ${String(e)}`);
        // Never read: say so instead of "Loading" forever; read again when the connection returns.
        if (!this.card) { this.shownOnline = false; this.post({ type: 'problem', problem: problemMessage('offline') }); }
      }
    }
  }

  private postCard(changedSinceAnswer = false): void {
    const card = this.card;
    if (!card) return;
    this.order.shown(card.version);
    this.shownOnline = this.deps.online();
    this.post(cardMessage(this.cardId, card, this.deps, { canAct: this.canAct(), hold: this.hold(), changedSinceAnswer }));
  }

  /** The hold as the model keeps it (one clock for every view), while it runs. */
  private hold(): { undoUntil?: string } {
    const until = this.deps.core.cards.holdUntil(this.cardId);
    return until !== undefined && until > Date.now() ? { undoUntil: new Date(until).toISOString() } : {};
  }

  private post(m: ToWebview): void {
    void this.panel.webview.postMessage(m);
  }

  /**
   * Handles one message from the webview and resolves to the reply the person was shown for it
   * (the result of a press, a refusal, the assistants list), or undefined when nothing answers it.
   */
  async onMessage(m: FromWebview, gesture?: UserGesture): Promise<PanelReply | undefined> {
    switch (m.type) {
      case 'ready':
        this.order.ready = true;
        this.post({ type: 'words', bundle: vscode.l10n.bundle, locale: vscode.env.language });
        if (this.unasked) this.post({ type: 'guardClicks' });
        this.next.restart();
        // The card, or the opening read under way (it shows the card once in), or a read now.
        if (this.card) this.postCard(); else if (this.order.readUnderWay) await this.order.readUnderWay; else await this.load({ from: 'service' });
        return undefined;
      case 'draft':
        await this.deps.memory.setDraft(this.cardId, m.draft);
        return undefined;
      case 'openLink': {
        const url = safeExternalUrl(m.url);
        if (!url) { this.deps.log.warn('card panel: refused a link that is not http(s)'); return undefined; }
        await openCardLink(url, this.deps.log);
        return undefined;
      }
      case 'openInBrowser': {
        // The one-time link into the card's page (the person may answer there), else its url (#35).
        const url = this.card && (await this.deps.core.pageUrl(this.card));
        const safe = url && safeExternalUrl(url);
        if (safe) await openCardLink(safe, this.deps.log);
        return undefined;
      }
      case 'goToTerminal':
        // The card as shown (whole: it names its computer). One asked on another computer has no
        // terminal here: the panel offers none, and a stale message is told where it runs.
        await this.deps.focusTerminal(this.card ?? { id: this.cardId });
        return undefined;
      case 'loadAssistants': {
        const reply = await helpersReply(this.deps.core, this.card, m.requestId);
        this.post(reply);
        return reply;
      }
      case 'openNext':
        // A card id (the protocol's check), the one whose title the webview showed: opened, never acted on.
        this.deps.openNext(this, m.cardId);
        return undefined;
      case 'close':
        this.dispose();
        return undefined;
      default:
        return gesture ? pressFromPanel(m, gesture, {
          cardId: this.cardId, order: this.order, movedOn: this.movedOn.signal, deps: this.deps,
          shown: () => this.card, isClosed: () => this.isDisposed, post: (x) => this.post(x),
          show: (how) => this.load(how), hold: () => this.hold(),
        }) : undefined;
    }
  }
}
