// Every card action as the person meets it, one row each: the panel's message, the palette's
// command, what the sign-in must allow, the words after a press, the button that takes a hold back
// and the panel's button. The core's row of the same action (sync/actions-table.ts) says what it
// sends and the card it leaves. The protocol's messages, the command names and registrations, the
// grant's context keys, the press's words and the webview's buttons are read from here, so a new
// action of the version alone is a row here, a row there, its client write and its command in the
// manifest (docs/decisions.md "#53: a new card action touches four files"); one that carries what
// the person chose adds the form that asks for it. test/shared/card-actions.test.ts holds every row
// whole, naming the place a row left out. No `vscode`, no zod: the host and the webview both import it.
import type { CardListEntry } from '../api/schemas';
import { waitsOnYou } from './card-facts';
import { hearsIn } from './format';
import type { Allowed } from './grant-scopes';
import { hearsWords } from './hand-over';
import { t } from './l10n';
import { answeredText } from './answered-text';
import type { PanelCard } from './panel-card';
import { plainText } from './plain-text';

/** `panel`: the words go over the card the panel shows. `toast`: a notification, the card not in sight. */
export type PressSurface = 'panel' | 'toast';

/** What the words of a press are told besides its outcome. */
export interface PressContext {
  /** The card as the person was shown it when they pressed. */
  shown: { title: string };
  surface: PressSurface;
  /** What was sent, in words: the answer (its summary, or the button's label) or the words written. */
  said?: string;
  /** The helper a hand-over named (blank: "The helper"). */
  helperName?: string;
  /** This computer's clock now, for "hears it in N s". */
  now: number;
}

/**
 * What the words read of a press done (the core's PressOutcome when ok). Declared here, not
 * imported: a type of the core would bring its Node-only types into the webview's type check.
 */
export interface Done {
  result: { hears?: string; until?: string };
  card: { until?: string };
  /** The end of the hold on this computer's clock, if one runs. */
  holdUntil?: number;
}

/** The tree's groups a palette pick may offer (editor/commands.ts passes them as the core's `Group`s). */
type PickGroup = 'pending' | 'agent' | 'snoozed' | 'delegated' | 'done';

/** What the panel knows when it offers a button (media/webview/state.ts PanelState has it). */
export interface PanelFacts {
  card?: Pick<PanelCard, 'kind' | 'status'>;
  undoUntil?: string;
}

/**
 * Where the panel shows an action's button (media/webview/view.ts `actionButtons`): beside the
 * hold's countdown, in a notice's body, in Later while the card is snoozed, in the hand-over part
 * while a helper has it. A new place is a new call there.
 */
export const PANEL_PLACES = ['hold', 'notice', 'snoozed', 'delegated'] as const;
export type PanelPlace = (typeof PANEL_PLACES)[number];

interface Row {
  /**
   * What its panel message carries besides the version: nothing (`version`: its schema, its press
   * and its palette command are made from this row), or what the person chose (`choice`: its
   * schema in protocol.ts, its press in editor/panel/panel-press.ts, its form in the webview and
   * its command in editor/commands.ts).
   */
  carries: 'version' | 'choice';
  /** What the sign-in must be allowed (shared/grant-scopes.ts); the first one missing is named. */
  needs: readonly (keyof Allowed)[];
  /** The context key (`assistantCards.<key>`, editor/context-keys.ts) of its command's `enablement`, set from `needs`. */
  enablement: string;
  /** Its command in the palette and the tree's menus (`assistantCards.<command>`, package.json). */
  command: string;
  /** A `version` action's command: the card the person picks (its title, the groups offered and which cards). */
  pick?: {
    title(): string;
    groups: readonly PickGroup[];
    accepts?(c: CardListEntry): boolean;
    /** Says "answered only in the service" before the press (with Open in Browser). */
    highStakesFirst: boolean;
  };
  done: {
    /** The panel's words once done: short, the card is in sight. */
    panel(): string;
    /** A notification's words once done: it names what it did, the card not in sight. */
    toast(out: Done, ctx: PressContext): string;
    /** The panel's second line: what was sent, in words. */
    said?(out: Done, ctx: PressContext): string | undefined;
  };
  /** While the hold this action starts runs, the action that takes it back, offered as a button. */
  undoneBy?: string;
  /** Its words as a button after another press (a notification's Undo, Take Back). */
  button?(): string;
  /** A `version` action's button in the panel. */
  panel?: {
    place: PanelPlace;
    /** The button's `data-key` (the host tests find it by it). */
    key: string;
    label(): string;
    primary?: boolean;
    /** A key press on the focused button waits out the moment a click does not (view.ts `press`). */
    guarded?: boolean;
    /** Whether the panel may send it now (besides presses being on and `needs`). */
    offered?(s: PanelFacts): boolean;
  };
}

export const CARD_ACTIONS = {
  answer: {
    carries: 'choice', needs: ['answer'], enablement: 'canAnswer', command: 'answer', undoneBy: 'undo',
    done: {
      panel: () => t('Answered.'),
      toast: (out, ctx) => (ctx.said
        ? t('Assistant Cards: {0}', answeredText(ctx.shown, ctx.said, hearsIn(out.holdUntil, ctx.now)))
        : t('Assistant Cards: answered "{0}". The assistant hears it in {1} s.', plainText(ctx.shown.title, 60), hearsIn(out.holdUntil, ctx.now))),
      said: (_out, ctx) => ctx.said,
    },
  },
  /** Closes a notice (an `update` card): its own press, never an empty answer. */
  gotIt: {
    carries: 'version', needs: ['answer'], enablement: 'canAnswer', command: 'gotIt', undoneBy: 'undo',
    pick: { title: () => t('Close a notice'), groups: ['pending'], accepts: (c) => c.kind === 'update' && waitsOnYou(c), highStakesFirst: true },
    done: { panel: () => t('Got it — closed.'), toast: () => t('Assistant Cards: notice closed.') },
    panel: { place: 'notice', key: 'gotit', label: () => t('Got it'), primary: true, guarded: true, offered: (s) => s.card?.kind === 'update' },
  },
  undo: {
    carries: 'version', needs: ['answer'], enablement: 'canAnswer', command: 'undo',
    pick: { title: () => t('Undo an answer'), groups: ['pending', 'agent'], accepts: (c) => c.status === 'answered', highStakesFirst: false },
    done: { panel: () => t('Undone: the card waits on you again.'), toast: () => t('Assistant Cards: undone; the card waits on you again.') },
    button: () => t('Undo'),
    panel: { place: 'hold', key: 'undo', label: () => t('Undo'), offered: (s) => Boolean(s.undoUntil) },
  },
  message: {
    carries: 'choice', needs: ['reply'], enablement: 'canReply', command: 'writeToAssistant',
    done: {
      panel: () => t('Sent to the assistant.'),
      toast: () => t('Assistant Cards: sent to the assistant.'),
      said: (_out, ctx) => (ctx.said ? t('You wrote: {0}', ctx.said) : undefined),
    },
  },
  later: {
    carries: 'choice', needs: ['later'], enablement: 'canLater', command: 'later',
    done: {
      panel: () => t('Put in Later.'),
      toast: (out) => {
        const until = out.result.until ?? out.card.until;
        return t('Assistant Cards: in Later until {0}.', until ? new Date(until).toLocaleString() : '');
      },
    },
  },
  back: {
    carries: 'version', needs: ['later'], enablement: 'canLater', command: 'back',
    pick: { title: () => t('Bring a card back'), groups: ['snoozed'], highStakesFirst: true },
    done: { panel: () => t('Back in the stack.'), toast: () => t('Assistant Cards: back in the stack.') },
    panel: { place: 'snoozed', key: 'back', label: () => t('Back now') },
  },
  /** A hand-over picks its helper from the assistants: both scopes. */
  delegate: {
    carries: 'choice', needs: ['delegate', 'assistants'], enablement: 'canHandOver', command: 'handOver', undoneBy: 'takeBack',
    done: {
      panel: () => t('Handed over.'),
      // The words that matter first: a notification shows about 100 characters.
      toast: (out, ctx) => t('Assistant Cards: {0} Handed over: "{1}".', hearsWords(out.result.hears, ctx.helperName ?? ''), plainText(ctx.shown.title, 60)),
      said: (out, ctx) => hearsWords(out.result.hears, ctx.helperName ?? ''),
    },
  },
  takeBack: {
    carries: 'version', needs: ['delegate'], enablement: 'canDelegate', command: 'takeBack',
    pick: { title: () => t('Take a card back'), groups: ['delegated'], highStakesFirst: true },
    done: { panel: () => t('Taken back: it waits on you again.'), toast: () => t('Assistant Cards: taken back; it waits on you again.') },
    button: () => t('Take Back'),
    panel: { place: 'delegated', key: 'takeBack', label: () => t('Take back'), guarded: true },
  },
} as const satisfies Record<string, Row>;

export type ActionType = keyof typeof CARD_ACTIONS;
type RowOf<T extends ActionType> = (typeof CARD_ACTIONS)[T];

/** The actions whose message is the version alone: made whole from their row. */
export type VersionAction = { [T in ActionType]: RowOf<T>['carries'] extends 'version' ? T : never }[ActionType];
/** The actions that take a hold back (Undo, Take Back), offered as a button while it runs. */
export type UndoAction = { [T in ActionType]: RowOf<T> extends { undoneBy: infer U } ? U : never }[ActionType];
/** The palette commands of the actions. */
export type ActionCommand = RowOf<ActionType>['command'];

export const ACTION_TYPES = Object.keys(CARD_ACTIONS) as ActionType[];
export const isActionType = (v: unknown): v is ActionType => typeof v === 'string' && Object.prototype.hasOwnProperty.call(CARD_ACTIONS, v);
export const VERSION_ACTIONS = ACTION_TYPES.filter((a): a is VersionAction => CARD_ACTIONS[a].carries === 'version');

/** A row typed for any action (the table's literal types are for the derived types above). */
export const actionRow = (type: ActionType): Row => CARD_ACTIONS[type];

/** The first of the action's needs the sign-in was not allowed, or undefined when it may. */
export const missingFor = (a: Allowed, type: ActionType): keyof Allowed | undefined => actionRow(type).needs.find((f) => !a[f]);
