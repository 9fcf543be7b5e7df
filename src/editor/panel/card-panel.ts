// One card panel: one webview's life, from its `ready` handshake to its close, and the presses it
// reports (typed messages). The host owns every request; the webview only renders. The registry
// and the serializer are card-panel-manager.ts; drafts and sent words panel-memory.ts.
import * as vscode from 'vscode';
import type { Card } from '../../api/schemas';
import { rowOf, type ClientCore, type UserGesture } from '../../sync';
import type { ContextKeys } from '../context-keys';
import { DisposableBase } from '../base/disposable';
import type { PanelMemory } from './panel-memory';
import type { Log } from '../base/log';
import { isChangedUnderfoot, pressWords } from '../base/press-words';
import { answerSummary } from '../../shared/answer-summary';
import { plainText } from '../../shared/plain-text';
import { problemMessage } from '../../shared/problem-messages';
import type { ActionMessage, FromWebview, ToWebview } from '../../shared/protocol';
import { isActionName, parseFromWebview, safeExternalUrl } from '../../shared/protocol';
import { pressOf } from './panel-press';
import { panelHtml } from './panel-html';
import { openCardLink } from './open-link';
import { helperChoices, helperNameOf } from '../../shared/hand-over';
import { allowsScope, EVERYTHING, notAllowedNote, type Allowed } from '../../shared/grant-scopes';
import { sameNext, type NextCard } from '../../shared/next-card';
import { elsewhereName } from '../../shared/card-computer';
import { panelCardOf } from '../../shared/panel-card';

/** What the panel showed in reply to one request from its webview. */
export type PanelReply = Extract<ToWebview, { type: 'done' | 'problem' | 'assistants' }>;

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
  /** Versions this webview was sent: a press may only name one of these. */
  private readonly shownVersions = new Set<number>();
  private busy = false;
  /** Aborted when the panel closes: the person moved on, the press being sent retries no more. */
  private readonly movedOn = new AbortController();
  private ready = false;
  /** The panel appeared without the person opening it: its webview guards clicks once it is ready. */
  private unasked = false;
  /** Whether the connection was online when the card was last shown (canAct follows it). */
  private shownOnline: boolean | undefined;
  /** What this webview was last told comes next (`next` undefined: none); undefined until told after its `ready`. */
  private toldNext: { next: NextCard | undefined } | undefined;
  /** A look at the next card is queued: a read of many cards looks once, not once per card. */
  private nextQueued = false;
  /** Set when the webview panel goes on to show another card (`release`): it is not closed with this. */
  private released = false;
  private readonly closed = this._register(new vscode.EventEmitter<void>());
  /** Fires once, when the panel closes (by the person, Esc, or its live set ending). */
  readonly onDidClose = this.closed.event;

  constructor(readonly cardId: string, readonly panel: vscode.WebviewPanel, private readonly deps: PanelDeps) {
    super();
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
      if (!this.ready && m.type !== 'ready') { deps.log.info(`card panel: dropped a ${m.type} from before ${cardId} loaded`); return; }
      // A message from the panel is the person's click or key: the gesture is minted right here.
      const gesture = isAction(m) ? deps.core.gestures.fromUiEvent(`panel:${m.type}`) : undefined;
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
    if (!this.released) this.panel.dispose();
  }

  /**
   * Lets go of the webview panel without closing it: the person moved on to the next card, which
   * the manager opens in the same panel. This card's part ends here (a press on its way stops retrying).
   */
  release(): vscode.WebviewPanel {
    this.released = true;
    this.dispose();
    return this.panel;
  }

  /** The cards waiting changed: tell the webview which card comes next, when that changed (once for the changes of one read). */
  nextChanged(): void {
    if (this.nextQueued) return;
    this.nextQueued = true;
    queueMicrotask(() => { this.nextQueued = false; this.tellNext(); });
  }

  private tellNext(): void {
    if (!this.ready || this.isDisposed) return;
    const next = this.deps.nextAfter(this.cardId);
    if (this.toldNext && sameNext(next, this.toldNext.next)) return;
    this.toldNext = { next };
    this.post(next ? { type: 'next', next } : { type: 'next' });
  }

  /** Whether the panel offers its actions now: signed in, and the card not high stakes (those are answered only in the service). */
  canAct(): boolean {
    return !!this.card && !this.card.highStakes && this.deps.online();
  }

  /** The card as the panel last showed it. */
  shown(): Card | undefined { return this.card; }
  isReady(): boolean { return this.ready; }

  /** The panel appears without the person opening it: a click in it lands on nothing for a moment (now, or once it is ready). */
  guardClicks(): void {
    this.unasked = true;
    if (this.ready) this.post({ type: 'guardClicks' });
  }

  private loading: Promise<void> | undefined;
  private loadAgain = false;

  /** The connection changed: show the card again with what may be done now (or read it, if never read). */
  connectionChanged(): void {
    const online = this.deps.online();
    if (online === this.shownOnline) return;
    if (!this.card) { if (online) this.cardChanged(); return; }
    if (this.ready) this.postCard();
  }

  /** The model says the card changed (or went): show the card as it holds it now; read only when it holds no whole form (one load at a time). */
  cardChanged(): void {
    this.queueLoad({ from: 'model' });
  }

  private queueLoad(how: { from: 'model' | 'service' }): void {
    if (this.loading) { this.loadAgain = true; return; }
    this.loading = this.load(how).finally(() => {
      this.loading = undefined;
      if (this.loadAgain) { this.loadAgain = false; this.cardChanged(); }
    });
  }

  /**
   * Shows `card` when given; else the card `from` the model (its whole form, read only when it
   * holds none) or the service (the person's read: on opening, and after a refused press).
   */
  private async load(how: { from: 'model' | 'service'; card?: Card; changedSinceAnswer?: boolean }): Promise<void> {
    const changedSinceAnswer = how.changedSinceAnswer ?? false;
    try {
      const cards = this.deps.core.cards;
      const card = how.card ?? await (how.from === 'model' ? cards.whole(this.cardId) : cards.read(this.cardId));
      if (this.isDisposed) return;
      this.card = card;
      this.panel.title = plainText(card.title, 40) || vscode.l10n.t('Card');
      if (this.ready) this.postCard(changedSinceAnswer);
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
    this.shownVersions.add(card.version);
    this.shownOnline = this.deps.online();
    const draft = this.deps.memory.draft(this.cardId);
    const sentWords = this.deps.memory.sentWords(this.cardId);
    const allowed = this.deps.allowed?.() ?? EVERYTHING;
    const notAllowed = notAllowedNote(allowed);
    const elsewhere = elsewhereName(card, this.deps.thisComputer?.());
    this.post({
      type: 'card',
      // What the webview shows, not the wire's card (shared/panel-card.ts).
      card: panelCardOf(card),
      shownVersion: card.version,
      ...(changedSinceAnswer ? { changedSinceAnswer } : {}),
      ...(draft ? { draft } : {}),
      timeZone: this.deps.timeZone(),
      canAct: this.canAct(),
      ...this.hold(),
      hostNowMs: Date.now(),
      ...(sentWords ? { sentWords } : {}),
      allowed,
      ...(notAllowed ? { notAllowed } : {}),
      ...(elsewhere ? { elsewhere } : {}),
    });
  }

  /** The hold as the model keeps it (one clock for every view), while it runs. */
  private hold(): { undoUntil?: string } {
    const until = this.deps.core.cards.holdUntil(this.cardId);
    return until !== undefined && until > Date.now() ? { undoUntil: new Date(until).toISOString() } : {};
  }

  private post(m: ToWebview): void {
    void this.panel.webview.postMessage(m);
  }

  /** Posts a reply to the person's request and hands it back to the caller. */
  private reply<T extends PanelReply>(message: T): T {
    this.post(message);
    return message;
  }

  /**
   * Handles one message from the webview and resolves to the reply the person was shown for it
   * (the result of a press, a refusal, the assistants list), or undefined when nothing answers it.
   */
  async onMessage(m: FromWebview, gesture?: UserGesture): Promise<PanelReply | undefined> {
    switch (m.type) {
      case 'ready':
        this.ready = true;
        this.post({ type: 'words', bundle: vscode.l10n.bundle, locale: vscode.env.language });
        if (this.unasked) this.post({ type: 'guardClicks' });
        this.toldNext = undefined;
        this.tellNext();
        // The card, or the opening read under way (it shows the card once in), or a read now.
        if (this.card) this.postCard(); else if (this.loading) await this.loading; else await this.load({ from: 'service' });
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
        try {
          await this.deps.core.assistants.refresh();
          // The asking assistant is never its own helper (a delegated card's helper is named from this list too).
          const list = this.card?.status === 'delegated' ? this.deps.core.assistants.list() : helperChoices(this.deps.core.assistants.list(), this.card);
          return this.reply({
            type: 'assistants', requestId: m.requestId,
            assistants: list.map((a) => ({
              id: a.id, name: a.name, appName: a.appName,
              agents: a.agents.map((g) => ({ id: g.id, name: g.name, state: g.state })),
            })),
          });
        } catch (e) {
          return this.reply({ type: 'problem', requestId: m.requestId, problem: problemMessage((e as { code?: string }).code ?? 'offline') });
        }
      }
      case 'openNext':
        // A card id (the protocol's check), the one whose title the webview showed: opened, never acted on.
        this.deps.openNext(this, m.cardId);
        return undefined;
      case 'close':
        this.dispose();
        return undefined;
      default:
        return gesture ? this.act(m, gesture) : undefined;
    }
  }

  private async act(m: ActionMessage, gesture: UserGesture): Promise<PanelReply | undefined> {
    // A press may only name a version this webview was shown: never a version the person has not seen.
    if (!this.shownVersions.has(m.version)) {
      return this.reply({ type: 'problem', requestId: m.requestId, problem: problemMessage('version_conflict') });
    }
    if (this.busy) return undefined; // one press at a time; a double click sends once
    // The panel hides what the sign-in may not do; a message for it anyway is answered, not sent.
    const { scope } = rowOf(m.type);
    if (!allowsScope(this.deps.allowed?.() ?? EVERYTHING, scope)) {
      return this.reply({ type: 'problem', requestId: m.requestId, problem: problemMessage('insufficient_scope', { scope }) });
    }
    if (!this.deps.online()) return this.reply({ type: 'problem', requestId: m.requestId, problem: problemMessage('signed_out') });
    const card = this.card;
    // Got it closes a notice; on any other card it is not a press the panel offers.
    if (m.type === 'gotIt' && card?.kind !== 'update') {
      this.deps.log.warn('card panel: dropped a Got it for a card that is not a notice');
      return undefined;
    }
    this.busy = true;
    this.post({ type: 'busy', requestId: m.requestId });
    try {
      if (!card) return undefined;
      // The card as this webview showed it at the version the press names (an Undo names the answer's).
      const out = await this.deps.core.act(gesture, { ...card, version: m.version }, pressOf(m, this.deps.timeZone()), { signal: this.movedOn.signal });
      if (this.isDisposed) return undefined;
      this.deps.contextKeys.noteAnswered(out);
      const told = pressWords(out, {
        shown: card, surface: 'panel', now: Date.now(),
        ...(m.type === 'answer' ? { said: answerSummary(card, m.body) } : m.type === 'message' ? { said: m.body } : {}),
        ...(m.type === 'delegate' ? { helperName: this.helperName(m.assistantId, m.agentId) } : {}),
      });
      if (!out.ok) {
        const p = out.problem;
        // The card as it is now first, then the refusal: the live region goes from "Sending…" to
        // the status that stands, once (#38 item 6). Told the other way round, a version conflict
        // was said twice ("The card changed…", then "This card changed… (now version 2)…") and a
        // card found gone twice (the refusal, then its going).
        // The card changed: show the new version and ask again. Nothing is resent.
        if (isChangedUnderfoot(p.code)) await this.load({ from: 'service', card: p.fresh, changedSinceAnswer: true });
        else if (p.code !== 'rate_limited' && p.code !== 'offline' && p.code !== 'timeout' && p.code !== 'cancelled') await this.load({ from: 'service' });
        const shown: PanelReply = { type: 'problem', requestId: m.requestId, problem: told.problem ?? problemMessage(p.code, p) };
        return this.isDisposed ? shown : this.reply(shown);
      }
      // The result is shown with its version: an Undo pressed before the reload names it.
      this.shownVersions.add(out.result.version);
      const done = this.reply({
        type: 'done', requestId: m.requestId, message: told.message, version: out.result.version,
        ...this.hold(), hostNowMs: Date.now(), ...(told.said ? { answered: told.said } : {}),
      });
      if (m.type === 'answer' || m.type === 'message') await this.deps.memory.setDraft(this.cardId, undefined);
      if (m.type === 'message' && out.result.messageId) await this.rememberWords(out.result.messageId, m.body);
      this.busy = false; // the person may press Undo while the card is shown again
      // The card as the model holds it: the press's built card, or already the read that followed
      // it (with this press in its history); a later read is told (cardChanged). The press's own
      // card when the model let it go (a notice's Got it with Done not read) or holds an older one.
      const held = this.deps.core.cards.held(this.cardId);
      await this.load({ from: 'model', card: held && held.version >= out.card.version ? held : out.card });
      return done;
    } finally {
      this.busy = false;
    }
  }

  /** The helper's name as the assistants list gave it; blank when it is not there ("The helper", never its id). */
  private helperName(assistantId: string, agentId?: string): string {
    return plainText(helperNameOf(this.deps.core.assistants.list(), assistantId, agentId) ?? '', 80);
  }

  /** The history names a message by its id only: keep the words sent from here. */
  private rememberWords(messageId: string, words: string): Promise<void> {
    return this.deps.memory.rememberWords(this.cardId, messageId, words);
  }
}

function isAction(m: FromWebview): m is ActionMessage {
  return isActionName(m.type);
}
