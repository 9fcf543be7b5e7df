// The card panels, for the extension's whole life (made in activate, like the trees' slots): the
// serializer VS Code hands the panels a window reload brings back, and the registry of open
// panels, one per card. The signed-in set of parts (live-parts.ts) attaches what the panels need
// (the client core and the rest) and detaches it when it ends; a panel revived before a set is
// attached waits here.
import type { ContextKeys } from '../context-keys';
import * as vscode from 'vscode';
import type { CardPanel, PanelDeps } from './card-panel';
import { DisposableBase, DisposableStore } from '../base/disposable';
import type { Log } from '../base/log';
import { PanelMemory } from './panel-memory';
import { isCardId } from '../../shared/card-facts';
import { nextCard, type NextCard } from '../../shared/next-card';

export const PANEL_VIEW_TYPE = 'assistantCards.card';

/** What a live set lends the panels while it lasts. */
export type PanelLive = Omit<PanelDeps, 'log' | 'extensionUri' | 'memory' | 'contextKeys' | 'nextAfter' | 'openNext'>;

export interface PanelHost {
  log: Log;
  extensionUri: vscode.Uri;
  workspaceState: vscode.Memento;
  contextKeys: ContextKeys;
}

export class CardPanelManager extends DisposableBase implements vscode.WebviewPanelSerializer {
  private readonly panels = new Map<string, CardPanel>();
  /** Panels VS Code brought back before a live set was attached. */
  private readonly waiting = new Map<string, vscode.WebviewPanel>();
  private attached: { live: PanelLive; Panel: typeof CardPanel; subs: DisposableStore } | undefined;
  private readonly memory: PanelMemory;

  constructor(private readonly host: PanelHost) {
    super();
    this.memory = new PanelMemory(host.workspaceState);
    // From activation on (`onWebviewPanel:assistantCards.card`): the webview's state names its card.
    this._register(vscode.window.registerWebviewPanelSerializer(PANEL_VIEW_TYPE, this));
    this._register({ dispose: () => this.attached?.subs.dispose() });
  }

  /**
   * A live set lends the panels its core; disposing the result closes them (a late event of an old
   * core reaches nothing). It brings the panel's code too: a panel opens only while a set is
   * attached, and card-panel.ts (with the webview protocol's schemas) loads with the live set, not
   * at activation (docs/decisions.md, "Load at activation").
   */
  attach(live: PanelLive, Panel: typeof CardPanel): vscode.Disposable {
    this.attached?.subs.dispose();
    const subs = new DisposableStore();
    const attached = { live, Panel, subs };
    this.attached = attached;
    subs.add({
      dispose: () => {
        if (this.attached === attached) this.attached = undefined;
        for (const p of [...this.panels.values()]) p.dispose();
        this.panels.clear();
      },
    });
    subs.add(live.core.cards.changed(({ card }) => this.panels.get(card.id)?.cardChanged()));
    subs.add(live.core.cards.removed(({ id }) => this.panels.get(id)?.cardChanged()));
    // Which card comes next may change with any card the tree lists.
    const nextChanged = () => { for (const p of this.panels.values()) p.nextChanged(); };
    subs.add(live.core.cards.added(nextChanged));
    subs.add(live.core.cards.changed(nextChanged));
    subs.add(live.core.cards.removed(nextChanged));
    subs.add(live.core.cards.filterChanged(nextChanged));
    // Offline, back online, signed out: what the panels allow follows the connection.
    subs.add(live.core.onDidChangeState(() => { for (const p of this.panels.values()) p.connectionChanged(); }));
    for (const [id, panel] of this.waiting) this.adopt(id, panel, attached);
    this.waiting.clear();
    return subs;
  }

  /**
   * Opens (or reveals) the panel of a card; `preserveFocus` when the person did not ask for it (a
   * card link, another extension, a command called with a bare id): then it takes no keyboard, and
   * a click in it lands on nothing for a moment. None while no set is attached.
   */
  open(cardId: string, column: vscode.ViewColumn = vscode.ViewColumn.Active, preserveFocus = false): CardPanel | undefined {
    const existing = this.panels.get(cardId);
    if (existing) {
      existing.panel.reveal(column, preserveFocus);
      if (preserveFocus) existing.guardClicks();
      return existing;
    }
    const attached = this.attached;
    if (!attached) return undefined;
    const panel = vscode.window.createWebviewPanel(PANEL_VIEW_TYPE, vscode.l10n.t('Card'), { viewColumn: column, preserveFocus }, this.options());
    const opened = this.adopt(cardId, panel, attached);
    if (preserveFocus) opened.guardClicks();
    return opened;
  }

  get(cardId: string): CardPanel | undefined { return this.panels.get(cardId); }

  /** The card that comes next after `cardId`: among the cards the tree lists as waiting on the person (its scope and filter). */
  private nextAfter(cardId: string): NextCard | undefined {
    const cards = this.attached?.live.core.cards;
    if (!cards) return undefined;
    return nextCard(cards.list('pending').filter((c) => cards.matches(c)), [cardId]);
  }

  /**
   * Next, pressed in `from`: the card opens in the same panel (its webview starts again with the
   * new card, so nothing of the last one, draft or key, carries over). A card already open in
   * another panel is shown there instead, and `from` closes: one panel per card.
   */
  private moveOn(from: CardPanel, nextId: string): void {
    const attached = this.attached;
    if (!attached || this.panels.get(from.cardId) !== from || nextId === from.cardId) return;
    const existing = this.panels.get(nextId);
    if (existing) { existing.panel.reveal(existing.panel.viewColumn, false); from.dispose(); return; }
    this.host.log.info(`card panel: next card ${nextId} after ${from.cardId}`);
    this.adopt(nextId, from.release(), attached);
  }
  all(): CardPanel[] { return [...this.panels.values()]; }

  /** A panel VS Code brought back after a window reload: shown again with its draft, or kept until a set is attached. */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const id = typeof state === 'object' && state !== null ? (state as { cardId?: unknown }).cardId : undefined;
    if (!isCardId(id)) { this.host.log.warn('card panel: a panel brought back without a card id was closed'); panel.dispose(); return; }
    const attached = this.attached;
    this.host.log.info(`card panel: ${id} brought back${attached ? '' : ', waiting for the sign-in'}`);
    if (attached) {
      const existing = this.panels.get(id);
      if (existing) { panel.dispose(); existing.panel.reveal(); return; }
      this.adopt(id, panel, attached);
      return;
    }
    this.waiting.get(id)?.dispose();
    this.waiting.set(id, panel);
    panel.onDidDispose(() => { if (this.waiting.get(id) === panel) this.waiting.delete(id); });
  }

  private options(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return {
      enableScripts: true,
      enableFindWidget: true,
      localResourceRoots: [
        vscode.Uri.joinPath(this.host.extensionUri, 'dist'),
        vscode.Uri.joinPath(this.host.extensionUri, 'media'),
      ],
    };
  }

  private adopt(cardId: string, panel: vscode.WebviewPanel, { live, Panel }: { live: PanelLive; Panel: typeof CardPanel }): CardPanel {
    panel.webview.options = this.options();
    const p = new Panel(cardId, panel, {
      ...live, log: this.host.log, extensionUri: this.host.extensionUri, memory: this.memory, contextKeys: this.host.contextKeys,
      nextAfter: (id) => this.nextAfter(id), openNext: (from, id) => this.moveOn(from, id),
    });
    this.panels.set(cardId, p);
    p.onDidClose(() => { if (this.panels.get(cardId) === p) this.panels.delete(cardId); });
    return p;
  }
}
