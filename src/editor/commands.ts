// Every command the manifest contributes, registered in one place. The ids come from one list so a
// test can compare them with package.json. Each card action works from the palette (quick picks)
// and from the tree's menus (the tree's own node is passed). Called with anything else (a card id
// from another extension or a command link, a look-alike node), an action opens the card and
// does nothing more: only the person's press acts.
import * as vscode from 'vscode';
import { say } from './base/say';
import { pressWords, type PressContext } from './base/press-words';
import { runPressButton, showTold } from './base/press-toast';
import type { Card, CardListEntry } from '../api/schemas';
import { GROUPS, type ClientCore, type PressAction, type PressOutcome } from '../sync';
import type { CardsTree } from './cards/cards-tree';
import type * as PalettePicks from './palette-picks';
import { setGrantContext } from './sign-in/grant';
import { isSignedIn, type LiveParts } from './live-parts';
import { copyCodeAndOpen } from './sign-in/sign-in';
import type { Log } from './base/log';
import type { ContextKeys } from './context-keys';
import { openCardPage } from './panel/open-link';
import { scopeSetting } from './cards/card-scope';
import { isCardId, waitsOnYou } from '../shared/card-facts';
import { COMMAND_NAMES, commandId, type CommandName } from '../shared/command-names';

type VersionCommand = (typeof CARD_ACTIONS)[VersionAction]['command'];
import { plainText } from '../shared/plain-text';
import { problemMessage } from '../shared/problem-messages';
import { EVERYTHING, SCOPE_OF } from '../shared/grant-scopes';
import { CARD_ACTIONS, missingFor, VERSION_ACTIONS, type ActionType, type VersionAction } from '../shared/card-actions';
import { nextCard } from '../shared/next-card';
import type { CliConnector } from './connect/cli-connector';
import type { LocalServiceHandle } from './connection/local-service-handle';

export { COMMAND_NAMES, commandId, type CommandName };

/** The palette's picks, the Answers' search and export: loaded by the first command that needs one, never at activation. */
const palettePicks = (): Promise<typeof PalettePicks> => import('./palette-picks.js');

export interface CommandHost {
  log: Log;
  /** The live set of parts of this window, if one is built (whatever its connection state). */
  live(): LiveParts | undefined;
  /** Opens a card in the live set of this moment (a late click may come after a rebuild). */
  openCard(id: string, opts?: { preserveFocus?: boolean }): void;
  signIn(): Promise<unknown>;
  signOut(): Promise<void>;
  /** Re-reads settings and the computer identity file; rebuilds the core when they changed. */
  refreshState(): Promise<void>;
  startSandbox(): Promise<void>;
  /** The person's local service (connection/local-service-flows.ts). */
  localService: Pick<LocalServiceHandle, 'run'>;
  timeZone(): string;
  /** The window's context keys (one per activation). */
  contextKeys: ContextKeys;
  /** Connect and Disconnect of the assistant CLIs (connect/cli-connector.ts). */
  cli: Pick<CliConnector, 'connect' | 'disconnect' | 'run'>;
}

type Handler = (...args: unknown[]) => unknown;

/**
 * A command that needs a signed-in set of parts has two forms (as rust-analyzer's ctx.ts does):
 * the enabled form, made from the parts, and the disabled form, run when there are none (signed
 * out, signing in, not set up). Which one runs is chosen in one place, `formOf` below.
 */
interface TwoForms {
  enabled(parts: LiveParts): Handler;
  /** Defaults to saying "sign in first". */
  disabled?: Handler;
}
/** A command that works the same whatever the connection state (sign in, show the log...). */
interface OneForm { always: Handler }
type Command = TwoForms | OneForm;

/** A card id named by a string or an object's `id`, if it looks like one (nothing is trusted). */
const cardIdIn = (arg: unknown): string | undefined => {
  const id = typeof arg === 'string' ? arg : typeof arg === 'object' && arg !== null ? (arg as { id?: unknown }).id : undefined;
  return isCardId(id) ? id : undefined;
};

/**
 * Who named the card of a command: nobody (the palette: the person picks), the person (the
 * node this tree handed out), or someone else (anything else: an id string, a look-alike).
 */
type Target = { from: 'pick' } | { from: 'tree'; id: string } | { from: 'elsewhere'; id: string | undefined };
const targetOf = (arg: unknown, tree: CardsTree): Target => {
  if (arg === undefined) return { from: 'pick' };
  if (tree.owns(arg)) return { from: 'tree', id: arg.id };
  return { from: 'elsewhere', id: cardIdIn(arg) };
};

/** The disabled form of the terminal commands: which assistant runs where is known once signed in. */
function assistantsNotKnown(): void {
  void say.info(vscode.l10n.t('Assistant Cards: sign in first; then the assistants of this window\'s terminals are known.'));
}

/** The disabled form of the scope toggle: the setting alone (a live set's scope follows it). */
async function toggleScopeSetting(): Promise<void> {
  const config = vscode.workspace.getConfiguration('assistantCards');
  await config.update('scope', scopeSetting() === 'workspace' ? 'machine' : 'workspace', vscode.ConfigurationTarget.Global);
}

/** The disabled form of the scope pick: the setting alone. */
async function chooseScopeSetting(): Promise<void> {
  const next = await (await palettePicks()).pickScope();
  if (next) await vscode.workspace.getConfiguration('assistantCards').update('scope', next, vscode.ConfigurationTarget.Global);
}

export function registerCommands(host: CommandHost): vscode.Disposable[] {
  const { log } = host;
  // Until a sign-in says otherwise, every action is offered (the keys gate the commands' `enablement`).
  setGrantContext(host.contextKeys, EVERYTHING);

  /**
   * The sign-in was not allowed what this action needs (the command was run by id or a key while
   * disabled): say which scope and how to allow it, and do nothing.
   */
  const notAllowed = (parts: LiveParts, action: ActionType): boolean => {
    // The first of the action's needs (its row in the action table) the sign-in was not allowed.
    const missing = missingFor(parts.grant.allowed(), action);
    if (!missing) return false;
    const p = problemMessage('insufficient_scope', { scope: SCOPE_OF[missing] });
    void say.warn(vscode.l10n.t('Assistant Cards: {0} {1}', p.message, p.next));
    return true;
  };

  /** The default disabled form: a card command run with no signed-in set of parts. */
  const signInFirst = (): void => {
    void say.warn(vscode.l10n.t('Assistant Cards: sign in first.'), vscode.l10n.t('Sign In'))
      .then((p) => { if (p) void vscode.commands.executeCommand(commandId('signIn')); });
  };

  /** The set of parts when signed in (online, or offline with the sign-in kept); else undefined. */
  const signedInParts = (): LiveParts | undefined => {
    const parts = host.live();
    return parts && isSignedIn(parts.core.state) ? parts : undefined;
  };

  /** The one place that picks a command's form, from the connection state of this moment. */
  const formOf = (c: Command): Handler => {
    if ('always' in c) return c.always;
    const parts = signedInParts();
    return parts ? c.enabled(parts) : (c.disabled ?? signInFirst);
  };

  /**
   * The card named by the argument, or one the person picks, read whole. The person saw it as the
   * tree or the pick showed it: when the card changed since, it is opened to be looked at again
   * instead of acted on (only the answer's own pick shows the fresh card: `showsFresh`).
   */
  const resolveCard = async ({ core, tree }: LiveParts, arg: unknown, title: string, groups: Parameters<typeof PalettePicks.pickCard>[1], accept?: (c: CardListEntry) => boolean, showsFresh = false): Promise<Card | undefined> => {
    const target = targetOf(arg, tree);
    if (target.from === 'elsewhere') {
      // Not the person's press: show the card (without taking the keyboard) and act on nothing.
      log.info(`a card action was called with something other than this window's tree node: ${target.id ? `opened ${target.id} instead` : 'ignored'}`);
      if (target.id && core.cards.get(target.id)) host.openCard(target.id, { preserveFocus: true });
      return undefined;
    }
    const id = target.from === 'tree' ? target.id : await (await palettePicks()).pickCard(core, groups, title, accept);
    if (!id) return undefined;
    const seen = core.cards.get(id)?.version;
    let card: Card;
    try {
      card = await core.cards.read(id); // the service's word now: has it changed since the person saw it?
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

  const refuseHighStakes = (core: ClientCore, card: Card): boolean => {
    if (!card.highStakes) return false;
    const p = problemMessage('high_stakes');
    void say.warn(vscode.l10n.t('Assistant Cards: {0}', p.message), vscode.l10n.t('Open in Browser'))
      .then((x) => { if (x) void openInService(core, card); });
    return true;
  };

  /**
   * Mints the gesture now (the person just finished the pick), presses through the one path and
   * tells what the press did as every place does (press-words.ts); a button pressed on that
   * notification runs through runPressButton (press-toast.ts): Undo or Take Back press again here,
   * on the version the press made.
   */
  const press = async (core: ClientCore, card: Card, action: PressAction, source: string, words: Partial<PressContext> = {}): Promise<PressOutcome> => {
    const gesture = core.gestures.fromUiEvent(`palette:${source}`);
    const out = await core.act(gesture, card, action);
    host.contextKeys.noteAnswered(out);
    void showTold(pressWords(out, { shown: card, surface: 'toast', now: Date.now(), ...words })).then((x) => runPressButton(x, out, card, {
      pressAgain: (again, made) => press(core, made, { type: again }, again),
      openCard: (id) => host.openCard(id),
      openPage: (c) => openInService(core, c),
    }));
    return out;
  };

  const openInService = (core: ClientCore, card: { id: string; url?: string | undefined }) => openCardPage(core, card, log);

  /** The scope buttons' pick of the three scopes (the live set's scope follows the setting). */
  const chooseScope: TwoForms = {
    enabled: ({ assistants }) => async () => { const next = await (await palettePicks()).pickScope(); if (next) await assistants.scope.set(next); },
    disabled: chooseScopeSetting,
  };
  /**
   * The command of an action whose press is the version alone (Got it, Undo, Back, Take back): the
   * card the person picks as its row says (shared/card-actions.ts `pick`), then the press.
   */
  const versionCommand = (type: VersionAction): TwoForms => ({
    enabled: (p) => async (arg?: unknown) => {
      const { pick } = CARD_ACTIONS[type];
      const { core } = p; if (notAllowed(p, type)) return;
      const card = await resolveCard(p, arg, pick.title(), pick.groups, 'accepts' in pick ? pick.accepts : undefined);
      if (!card || (pick.highStakesFirst && refuseHighStakes(core, card))) return;
      await press(core, card, { type }, type);
    },
  });
  const connectThen = async (arg: unknown) => {
    const r = await host.cli.run('connect', arg);
    if (r === 'connected' || r === 'already') await host.localService.run('afterConnect');
    return r;
  };
  const commands: Record<CommandName, Command> = {
    signIn: { always: () => host.signIn() },
    signOut: { always: () => host.signOut() },
    // While signing in (the welcome view, the status bar, the progress notification's link).
    copySignInCode: { always: () => { const core = host.live()?.core; return core ? copyCodeAndOpen(core.state) : undefined; } },
    cancelSignIn: { always: () => host.live()?.cancelSignIn() },
    refresh: {
      // After a rebuild, the form is chosen again: the new set of parts may not be signed in.
      always: async () => { await host.refreshState(); await formOf(readCards)(); },
    },
    showLog: { always: () => log.show() },
    startSandbox: { always: () => host.startSandbox() },
    // Hooks in the CLIs' user settings: whatever the connection state (they outlive a sign-in).
    // One Connect and one Disconnect for every CLI adapter: the CLI's id (or its row of the
    // Assistants view) as argument, or the person picks. A CLI connected needs a service to ask:
    // the local one starts when this window has no other.
    connectCli: { always: (arg?: unknown) => connectThen(arg) },
    disconnectCli: { always: (arg?: unknown) => host.cli.run('disconnect', arg) },
    ...(Object.fromEntries(VERSION_ACTIONS.map((a) => [CARD_ACTIONS[a].command, versionCommand(a)])) as Record<VersionCommand, Command>),
    startLocalService: { always: () => host.localService.run('start') },
    stopLocalService: { always: () => host.localService.run('stop') },
    allowSignIn: { always: () => host.localService.run('allowTyped') },

    openCard: {
      enabled: (p) => async (arg?: unknown) => {
        // A row of the Answers view the person clicked: theirs, like the cards tree's.
        if (p.answers.owns(arg)) { host.openCard(arg.id); return; }
        const target = targetOf(arg, p.tree);
        if (target.from === 'elsewhere') {
          // A bare id (a command link, another extension): only a card this window holds opens, and
          // without taking the keyboard; an unknown one makes no panel and spends no read (#37).
          if (target.id && p.core.cards.get(target.id)) host.openCard(target.id, { preserveFocus: true });
          else log.info(`open card: ignored ${target.id ? `${target.id}, a card this window does not hold` : 'an argument that is no card id'}`);
          return;
        }
        const id = target.from === 'pick' ? await (await palettePicks()).pickCard(p.core, GROUPS, vscode.l10n.t('Open a card')) : target.id;
        if (id) host.openCard(id);
      },
    },
    nextCard: {
      enabled: ({ core, tree }) => () => {
        // The same next as the card panel's Next step (shared/next-card.ts): the first blocking, else the first.
        const next = nextCard(core.cards.list('pending'), []);
        if (!next) { void say.info(vscode.l10n.t('Assistant Cards: nothing waits on you.')); return; }
        host.openCard(next.id);
        void tree.reveal(next.id).catch(() => undefined);
      },
    },
    answer: {
      enabled: (p) => async (arg?: unknown) => {
        const { core } = p; if (notAllowed(p, 'answer')) return;
        const card = await resolveCard(p, arg, vscode.l10n.t('Answer a card'), ['pending'], (c) => waitsOnYou(c) && !c.highStakes, true);
        if (!card || refuseHighStakes(core, card)) return;
        if (!waitsOnYou(card)) { void say.info(vscode.l10n.t('Assistant Cards: this card no longer waits on you.')); return; }
        const pick = await (await palettePicks()).pickAnswer(card);
        if (!pick) return;
        if (pick.kind === 'open') { host.openCard(card.id); return; } // words a pick cannot show whole: the panel shows them
        await press(core, card, pick.kind === 'gotIt' ? { type: 'gotIt' } : { type: 'answer', answer: pick.body }, 'answer');
      },
    },
    writeToAssistant: {
      enabled: (p) => async (arg?: unknown) => {
        const { core } = p; if (notAllowed(p, 'message')) return;
        const card = await resolveCard(p, arg, vscode.l10n.t('Write to the assistant'), ['pending'], (c) => waitsOnYou(c) && !c.highStakes && c.kind !== 'update');
        if (!card || refuseHighStakes(core, card)) return;
        const body = await vscode.window.showInputBox({ title: vscode.l10n.t('Write to the assistant: {0}', plainText(card.title, 60)), prompt: vscode.l10n.t('The assistant acts on your words as the answer'), validateInput: (v) => (v.trim() ? (v.length > 10_000 ? vscode.l10n.t('At most 10,000 characters') : undefined) : vscode.l10n.t('Write something')) });
        if (!body) return;
        await press(core, card, { type: 'message', body, via: 'text' }, 'message');
      },
    },
    later: {
      enabled: (p) => async (arg?: unknown) => {
        const { core } = p; if (notAllowed(p, 'later')) return;
        const card = await resolveCard(p, arg, vscode.l10n.t('Put a card in Later'), ['pending'], (c) => waitsOnYou(c) && !c.highStakes);
        if (!card || refuseHighStakes(core, card)) return;
        const until = await (await palettePicks()).pickLater(host.timeZone());
        if (!until) return;
        await press(core, card, { type: 'later', until, timeZone: host.timeZone() }, 'later');
      },
    },
    handOver: {
      enabled: (p) => async (arg?: unknown) => {
        const { core } = p; if (notAllowed(p, 'delegate')) return;
        const card = await resolveCard(p, arg, vscode.l10n.t('Hand a card over'), ['pending'], (c) => waitsOnYou(c) && !c.highStakes && c.kind !== 'update');
        if (!card || refuseHighStakes(core, card)) return;
        const to = await (await palettePicks()).pickHelper(core, card);
        if (!to) return;
        // When the helper hears it (the answer's `hears`), with Take Back for the 5 s, as with Undo.
        await press(core, card, { type: 'delegate', to: { assistantId: to.assistantId, ...(to.agentId ? { agentId: to.agentId } : {}) }, mode: to.mode, ...(to.note ? { note: to.note } : {}) }, 'delegate', { helperName: to.helperName });
      },
    },
    openInBrowser: {
      enabled: (p) => async (arg?: unknown) => {
        const card = await resolveCard(p, arg, vscode.l10n.t('Open a card in the browser'), GROUPS);
        if (card) await openInService(p.core, card);
      },
    },
    filter: { enabled: ({ core, tree }) => async () => (await palettePicks()).pickFilter(core, tree) },
    // The view title's clear button: shown while a filter or one terminal narrows the tree.
    clearFilter: {
      enabled: ({ tree, assistants }) => () => { void tree.setFilter({}); assistants.scope.clearTerminal(); },
      disabled: () => undefined,
    },
    // The view title's scope button, one per scope so its icon shows the scope in force; each
    // offers all three.
    scopeWindow: chooseScope,
    scopeComputer: chooseScope,
    scopeEverywhere: chooseScope,
    focusTerminal: { enabled: ({ assistants }) => assistants.commands.focusTerminal, disabled: assistantsNotKnown },
    cardsOfActiveTerminal: { enabled: ({ assistants }) => assistants.commands.cardsOfActiveTerminal, disabled: assistantsNotKnown },
    toggleScope: { enabled: ({ assistants }) => assistants.commands.toggleScope, disabled: toggleScopeSetting },
    searchAnswers: { enabled: ({ answers, core }) => async () => (await palettePicks()).pickAnswerSearch(answers, core) },
    // The view title's clear button: one press shows every answer read again.
    clearAnswerSearch: { enabled: ({ answers }) => () => answers.setSearch({}), disabled: () => undefined },
    exportAnswers: { enabled: ({ answers, core }) => async () => (await palettePicks()).exportAnswers(core, answers.me, host.timeZone(), log) },
    // While searched, "more" reads on until the 30 days are read (the search covers them all).
    loadMoreAnswers: {
      enabled: ({ answers, core }) => () => answers.load(() => (!core.answers.started() ? core.answers.loadFirst()
        : core.answers.searchProgress() ? core.answers.searchFurther() : core.answers.loadMore())),
    },
    stopAnswerSearch: { enabled: ({ core }) => () => core.answers.stopSearching(), disabled: () => undefined },
  };
  /** Not a command: how `refresh` reads the cards again once the set of parts is rebuilt. */
  const readCards: Command = {
    enabled: ({ core }) => async () => {
      // The Answers view, once read, reads its first page again too.
      if (core.answers.started()) void core.answers.loadFirst().catch((e: unknown) => log.warn(`answers refresh failed: ${String(e)}`));
      try {
        await core.cards.refresh();
      } catch (e) {
        log.warn(`refresh failed: ${String(e)}`);
        void say.error(vscode.l10n.t('Assistant Cards: could not read your cards ({0}). It tries again by itself; check the connection or the log.', (e as Error).message ?? String(e)), vscode.l10n.t('Show Log'))
          .then((x) => { if (x) log.show(); });
      }
    },
    disabled: () => undefined,
  };
  return COMMAND_NAMES.map((name) => vscode.commands.registerCommand(commandId(name), (...args: unknown[]) => {
    try {
      const r = formOf(commands[name])(...args);
      if (r instanceof Promise) return r.catch((e: unknown) => { log.error(`command ${name}: ${String(e)}`); throw e; });
      return r;
    } catch (e) {
      log.error(`command ${name}: ${String(e)}`);
      throw e;
    }
  }));
}

