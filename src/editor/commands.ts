// Every command the manifest contributes, registered in one place. The ids come from one list so a
// test can compare them with package.json. Each card action works from the palette (quick picks)
// and from the tree's menus (the tree's own node is passed). Called with anything else (a card id
// from another extension or a command link, a look-alike node), an action opens the card and
// does nothing more: only the person's press acts.
import * as vscode from 'vscode';
import { say } from './say';
import type { Card, CardListEntry } from '../api/schemas';
import type { ClientCore, PressAction } from '../sync';
import type { CardsTree } from './cards-tree';
import { pickAnswer, pickCard, pickHelper, pickLater } from './card-picks';
import { pickFilter } from './filter-pick';
import { allowedNow, setGrantContext } from './grant';
import type { Log } from './log';
import { runPress, type Outcome } from './press-runner';
import { secondsLeft } from './shared/format';
import { hearsWords } from './shared/hand-over';
import { plainText } from './shared/plain-text';
import { problemMessage, problemText } from './shared/problem-messages';
import { safeExternalUrl } from './shared/protocol';
import { canHandOver, EVERYTHING, SCOPE_OF, type Allowed } from './shared/scopes';

export const COMMAND_NAMES = [
  'signIn', 'signOut', 'refresh', 'openCard', 'answer', 'undo', 'writeToAssistant', 'later', 'back',
  'handOver', 'takeBack', 'openInBrowser', 'showLog', 'focusTerminal', 'startSandbox', 'gotIt',
  'filter', 'toggleScope', 'cardsOfActiveTerminal', 'nextCard', 'clearFilter', 'showWholeComputer',
  'showThisWindow',
] as const;

export type CommandName = (typeof COMMAND_NAMES)[number];
export const commandId = (name: CommandName): string => `assistantCards.${name}`;

export interface CommandHost {
  log: Log;
  core(): ClientCore | undefined;
  tree(): CardsTree | undefined;
  openCard(id: string, opts?: { preserveFocus?: boolean }): void;
  signIn(): Promise<unknown>;
  signOut(): Promise<void>;
  /** Re-reads settings and the computer identity file; rebuilds the core when they changed. */
  refreshState(): Promise<void>;
  startSandbox(): Promise<void>;
  timeZone(): string;
}

/** The handlers of the assistants feature (terminals and scope), passed in by extension.ts. */
export type ExtraHandlers = Record<'focusTerminal' | 'cardsOfActiveTerminal' | 'toggleScope', (...args: unknown[]) => unknown>
  /** Ends "cards of one terminal" (not a command: the clear-filter button does it too). */
  & { clearTerminalScope(): void };

const CARD_ID = /^req_[A-Za-z0-9-]{1,100}$/;

/** A card id named by a string or an object's `id`, if it looks like one (nothing is trusted). */
const cardIdIn = (arg: unknown): string | undefined => {
  const id = typeof arg === 'string' ? arg : typeof arg === 'object' && arg !== null ? (arg as { id?: unknown }).id : undefined;
  return typeof id === 'string' && CARD_ID.test(id) ? id : undefined;
};

/**
 * Who named the card of a command: nobody (the palette: the person picks), the person (the
 * node this tree handed out), or someone else (anything else: an id string, a look-alike).
 */
type Target = { from: 'pick' } | { from: 'tree'; id: string } | { from: 'elsewhere'; id: string | undefined };
const targetOf = (arg: unknown, tree: CardsTree | undefined): Target => {
  if (arg === undefined) return { from: 'pick' };
  if (tree?.owns(arg)) return { from: 'tree', id: arg.id };
  return { from: 'elsewhere', id: cardIdIn(arg) };
};

const scopeIsMachine = (): boolean => vscode.workspace.getConfiguration('assistantCards').get<string>('scope') === 'machine';

const waitsOnYou = (c: CardListEntry) => c.status === 'pending' && c.turn === 'you';

export function registerCommands(host: CommandHost, extra: ExtraHandlers): vscode.Disposable[] {
  const { log } = host;
  // Until a sign-in says otherwise, every action is offered (the keys gate the commands' `enablement`).
  setGrantContext(EVERYTHING);

  /**
   * The sign-in was not allowed what this action needs (the command was run by id or a key while
   * disabled): say which scope and how to allow it, and do nothing.
   */
  const notAllowed = (core: ClientCore, needs: keyof Allowed | 'handOver'): boolean => {
    const a = allowedNow(core);
    const ok = needs === 'handOver' ? canHandOver(a) : a[needs];
    if (ok) return false;
    const scope = needs === 'handOver' ? (a.delegate ? SCOPE_OF.assistants : SCOPE_OF.delegate) : SCOPE_OF[needs];
    const p = problemMessage('insufficient_scope', { scope });
    void say.warn(vscode.l10n.t('Assistant Cards: {0} {1}', p.message, p.next));
    return true;
  };

  const needCore = (): ClientCore | undefined => {
    const core = host.core();
    if (!core || core.state.kind !== 'online' && core.state.kind !== 'offline') {
      void say.warn(vscode.l10n.t('Assistant Cards: sign in first.'), vscode.l10n.t('Sign In'))
        .then((p) => { if (p) void vscode.commands.executeCommand(commandId('signIn')); });
      return undefined;
    }
    return core;
  };

  /**
   * The card named by the argument, or one the person picks, read whole. The person saw it as the
   * tree or the pick showed it: when the card changed since, it is opened to be looked at again
   * instead of acted on (only the answer's own pick shows the fresh card: `showsFresh`).
   */
  const resolveCard = async (core: ClientCore, arg: unknown, title: string, groups: Parameters<typeof pickCard>[1], accept?: (c: CardListEntry) => boolean, showsFresh = false): Promise<Card | undefined> => {
    const target = targetOf(arg, host.tree());
    if (target.from === 'elsewhere') {
      // Not the person's press: show the card (without taking the keyboard) and act on nothing.
      log.info(`a card action was called with something other than this window's tree node: ${target.id ? `opened ${target.id} instead` : 'ignored'}`);
      if (target.id && core.cards.get(target.id)) host.openCard(target.id, { preserveFocus: true });
      return undefined;
    }
    const id = target.from === 'tree' ? target.id : await pickCard(core, groups, title, accept);
    if (!id) return undefined;
    const seen = core.cards.get(id)?.version;
    let card: Card;
    try {
      card = await core.cards.whole(id);
    } catch (e) {
      void say.error(vscode.l10n.t('Assistant Cards: could not read the card ({0}). Refresh the view and try again.', (e as Error).message));
      return undefined;
    }
    if (!showsFresh && seen !== undefined && card.version > seen) {
      void say.info(vscode.l10n.t('Assistant Cards: the card changed since you saw it. It is open now: look again, then choose.'));
      host.openCard(id);
      return undefined;
    }
    return card;
  };

  const refuseHighStakes = (card: Card): boolean => {
    if (!card.highStakes) return false;
    const p = problemMessage('high_stakes');
    void say.warn(vscode.l10n.t('Assistant Cards: {0}', p.message), vscode.l10n.t('Open in Browser'))
      .then((x) => { if (x) void openUrl(card.url); });
    return true;
  };

  /** Mints the gesture now (the person just finished the pick) and sends the press once. */
  const press = async (core: ClientCore, card: Card, action: PressAction, source: string): Promise<Outcome> => {
    const gesture = core.gestures.fromUiEvent(`palette:${source}`);
    const out = await runPress(core, gesture, { id: card.id, version: card.version, ...(card.highStakes ? { highStakes: true } : {}), ...(card.url ? { url: card.url } : {}) }, action, log);
    if (!out.ok) {
      const p = problemMessage(out.problem.code, out.problem);
      const buttons = out.problem.code === 'version_conflict' ? [vscode.l10n.t('Open Card')] : out.problem.code === 'high_stakes' ? [vscode.l10n.t('Open in Browser')] : [];
      void say.error(vscode.l10n.t('Assistant Cards: {0}', problemText(p)), ...buttons).then((x) => {
        if (x === vscode.l10n.t('Open Card')) host.openCard(card.id);
        if (x === vscode.l10n.t('Open in Browser')) void openUrl(out.problem.url ?? card.url);
      });
    }
    return out;
  };

  const openUrl = async (url: string | undefined) => {
    const safe = url ? safeExternalUrl(url) : undefined;
    if (!safe) { void say.warn(vscode.l10n.t('Assistant Cards: this card has no web address to open.')); return; }
    await vscode.env.openExternal(vscode.Uri.parse(safe, true));
  };

  const afterAnswer = (core: ClientCore, out: Outcome, card: Card) => {
    if (!out.ok) return;
    const undoUntil = out.value.undoUntil;
    const left = secondsLeft(undoUntil, Date.now());
    void say.info(
      vscode.l10n.t('Assistant Cards: answered "{0}". The assistant hears it in {1} s.', plainText(card.title, 60), left), vscode.l10n.t('Undo'),
    ).then(async (x) => {
      if (x !== vscode.l10n.t('Undo')) return;
      // The version this message told of; a card changed since is refused, never undone unseen.
      await press(core, { ...card, version: out.value.version }, { type: 'undo' }, 'undo');
    });
  };

  const handlers: Record<CommandName, (...args: unknown[]) => unknown> = {
    signIn: () => host.signIn(),
    signOut: () => host.signOut(),
    refresh: async () => {
      await host.refreshState();
      const core = host.core();
      if (!core || core.state.kind === 'signed-out' || core.state.kind === 'not-set-up') return;
      try {
        await core.cards.refresh();
      } catch (e) {
        log.warn(`refresh failed: ${String(e)}`);
        void say.error(vscode.l10n.t('Assistant Cards: could not read your cards ({0}). It tries again by itself; check the connection or the log.', (e as Error).message ?? String(e)), vscode.l10n.t('Show Log'))
          .then((x) => { if (x) log.show(); });
      }
    },
    showLog: () => log.show(),
    startSandbox: () => host.startSandbox(),

    openCard: async (arg?: unknown) => {
      const core = needCore(); if (!core) return;
      const target = targetOf(arg, host.tree());
      const id = target.from === 'pick' ? await pickCard(core, ['pending', 'agent', 'snoozed', 'delegated', 'done'], vscode.l10n.t('Open a card')) : target.id;
      // Opened from elsewhere, the panel shows without taking the keyboard from the person.
      if (id) host.openCard(id, { preserveFocus: target.from === 'elsewhere' });
    },
    nextCard: () => {
      const core = needCore(); if (!core) return;
      const next = core.cards.list('pending').find(waitsOnYou);
      if (!next) { void say.info(vscode.l10n.t('Assistant Cards: nothing waits on you.')); return; }
      host.openCard(next.id);
      void host.tree()?.reveal(next.id).catch(() => undefined);
    },
    answer: async (arg?: unknown) => {
      const core = needCore(); if (!core || notAllowed(core, 'answer')) return;
      const card = await resolveCard(core, arg, vscode.l10n.t('Answer a card'), ['pending'], (c) => waitsOnYou(c) && !c.highStakes, true);
      if (!card || refuseHighStakes(card)) return;
      if (!waitsOnYou(card)) { void say.info(vscode.l10n.t('Assistant Cards: this card no longer waits on you.')); return; }
      const pick = await pickAnswer(card);
      if (!pick) return;
      const out = await press(core, card, pick.kind === 'gotIt' ? { type: 'gotIt' } : { type: 'answer', answer: pick.body }, 'answer');
      if (pick.kind === 'answer') afterAnswer(core, out, card);
    },
    gotIt: async (arg?: unknown) => {
      const core = needCore(); if (!core || notAllowed(core, 'answer')) return;
      const card = await resolveCard(core, arg, vscode.l10n.t('Close a notice'), ['pending'], (c) => c.kind === 'update' && waitsOnYou(c));
      if (!card || refuseHighStakes(card)) return;
      const out = await press(core, card, { type: 'gotIt' }, 'gotIt');
      if (out.ok) void say.info(vscode.l10n.t('Assistant Cards: notice closed.'));
    },
    undo: async (arg?: unknown) => {
      const core = needCore(); if (!core || notAllowed(core, 'answer')) return;
      const card = await resolveCard(core, arg, vscode.l10n.t('Undo an answer'), ['pending', 'agent'], (c) => c.status === 'answered');
      if (!card) return;
      const out = await press(core, card, { type: 'undo' }, 'undo');
      if (out.ok) void say.info(vscode.l10n.t('Assistant Cards: undone; the card waits on you again.'));
    },
    writeToAssistant: async (arg?: unknown) => {
      const core = needCore(); if (!core || notAllowed(core, 'reply')) return;
      const card = await resolveCard(core, arg, vscode.l10n.t('Write to the assistant'), ['pending'], (c) => waitsOnYou(c) && !c.highStakes && c.kind !== 'update');
      if (!card || refuseHighStakes(card)) return;
      const body = await vscode.window.showInputBox({ title: vscode.l10n.t('Write to the assistant: {0}', plainText(card.title, 60)), prompt: vscode.l10n.t('The assistant acts on your words as the answer'), validateInput: (v) => (v.trim() ? (v.length > 10_000 ? vscode.l10n.t('At most 10,000 characters') : undefined) : vscode.l10n.t('Write something')) });
      if (!body) return;
      const out = await press(core, card, { type: 'message', body, via: 'text' }, 'message');
      if (out.ok) void say.info(vscode.l10n.t('Assistant Cards: sent to the assistant.'));
    },
    later: async (arg?: unknown) => {
      const core = needCore(); if (!core || notAllowed(core, 'later')) return;
      const card = await resolveCard(core, arg, vscode.l10n.t('Put a card in Later'), ['pending'], (c) => waitsOnYou(c) && !c.highStakes);
      if (!card || refuseHighStakes(card)) return;
      const until = await pickLater(host.timeZone());
      if (!until) return;
      const out = await press(core, card, { type: 'later', until, timeZone: host.timeZone() }, 'later');
      if (out.ok) void say.info(vscode.l10n.t('Assistant Cards: in Later until {0}.', new Date(out.value.until ?? until).toLocaleString()));
    },
    back: async (arg?: unknown) => {
      const core = needCore(); if (!core || notAllowed(core, 'later')) return;
      const card = await resolveCard(core, arg, vscode.l10n.t('Bring a card back'), ['snoozed']);
      if (!card || refuseHighStakes(card)) return;
      const out = await press(core, card, { type: 'back' }, 'back');
      if (out.ok) void say.info(vscode.l10n.t('Assistant Cards: back in the stack.'));
    },
    handOver: async (arg?: unknown) => {
      const core = needCore(); if (!core || notAllowed(core, 'handOver')) return;
      const card = await resolveCard(core, arg, vscode.l10n.t('Hand a card over'), ['pending'], (c) => waitsOnYou(c) && !c.highStakes && c.kind !== 'update');
      if (!card || refuseHighStakes(card)) return;
      const to = await pickHelper(core, card);
      if (!to) return;
      const out = await press(core, card, { type: 'delegate', to: { assistantId: to.assistantId, ...(to.agentId ? { agentId: to.agentId } : {}) }, mode: to.mode, ...(to.note ? { note: to.note } : {}) }, 'delegate');
      if (!out.ok) return;
      // When the helper hears it (the answer's `hears`), and the 5 s to take it back, as with Undo.
      const takeBack = vscode.l10n.t('Take Back');
      // The words that matter first: a notification shows about 100 characters.
      void say.info(vscode.l10n.t('Assistant Cards: {0} Handed over: "{1}".', hearsWords(out.value.hears, to.helperName), plainText(card.title, 60)), takeBack)
        .then(async (x) => {
          if (x !== takeBack) return;
          // The version this message told of; a card changed since is refused, never taken back unseen.
          const back = await press(core, { ...card, version: out.value.version }, { type: 'takeBack' }, 'takeBack');
          if (back.ok) void say.info(vscode.l10n.t('Assistant Cards: taken back; it waits on you again.'));
        });
    },
    takeBack: async (arg?: unknown) => {
      const core = needCore(); if (!core || notAllowed(core, 'delegate')) return;
      const card = await resolveCard(core, arg, vscode.l10n.t('Take a card back'), ['delegated']);
      if (!card || refuseHighStakes(card)) return;
      const out = await press(core, card, { type: 'takeBack' }, 'takeBack');
      if (out.ok) void say.info(vscode.l10n.t('Assistant Cards: taken back; it waits on you again.'));
    },
    openInBrowser: async (arg?: unknown) => {
      const core = needCore(); if (!core) return;
      const card = await resolveCard(core, arg, vscode.l10n.t('Open a card in the browser'), ['pending', 'agent', 'snoozed', 'delegated', 'done']);
      if (card) await openUrl(card.url);
    },
    filter: async () => {
      const core = needCore(); const tree = host.tree(); if (!core || !tree) return;
      await pickFilter(core, tree);
    },
    // The view title's clear button: shown while a filter or one terminal narrows the tree.
    clearFilter: () => {
      void host.tree()?.setFilter({});
      extra.clearTerminalScope();
    },
    // The view title's scope button, one per scope so its icon shows the scope in force.
    showWholeComputer: () => (scopeIsMachine() ? undefined : extra.toggleScope()),
    showThisWindow: () => (scopeIsMachine() ? extra.toggleScope() : undefined),
    focusTerminal: extra.focusTerminal,
    cardsOfActiveTerminal: extra.cardsOfActiveTerminal,
    toggleScope: extra.toggleScope,
  };
  return COMMAND_NAMES.map((name) => vscode.commands.registerCommand(commandId(name), (...args: unknown[]) => {
    try {
      const r = handlers[name](...args);
      if (r instanceof Promise) return r.catch((e: unknown) => { log.error(`command ${name}: ${String(e)}`); throw e; });
      return r;
    } catch (e) {
      log.error(`command ${name}: ${String(e)}`);
      throw e;
    }
  }));
}

