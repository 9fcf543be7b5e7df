// The action table held whole (#53: a new card action touches four files). Every row of
// shared/card-actions.ts must have, everywhere it is read: the core's row (send, leaves), its command
// in COMMAND_NAMES and the manifest (title, enablement) with its words in package.nls.json, its
// context key, its panel message, its words (found by the l10n extractor), the button that takes its
// hold back, and for a press of the version alone its palette pick and its panel button. A row
// added with a place forgotten fails here, with a message that names the place.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Card } from '../../src/api/schemas';
import { ACTION_TYPES, actionRow, CARD_ACTIONS, PANEL_PLACES, type ActionType, type VersionAction } from '../../src/shared/card-actions';
import { COMMAND_NAMES } from '../../src/shared/command-names';
import { parseFromWebview } from '../../src/shared/protocol';
import { ACTIONS, rowOf, type PressAction, type PressedBy } from '../../src/sync/actions-table';
import type { PressOutcome } from '../../src/sync/contract';
import * as act from '../../media/webview/actions';
import { initialState, reduce, type PanelState } from '../../media/webview/state';
import { card, cardMsg, NOW } from '../media/webview/fixtures';

const root = path.resolve(__dirname, '..', '..');
const read = (rel: string) => fs.readFileSync(path.join(root, rel), 'utf8');
const json = <T>(rel: string) => JSON.parse(read(rel)) as T;

interface Manifest { contributes: { commands: { command: string; title: string; enablement?: string }[] } }
const manifest = json<Manifest>('package.json');
const nls = json<Record<string, string>>('package.nls.json');
const bundle = json<Record<string, string>>('l10n/bundle.l10n.json');
/** The keys of CONTEXT (read from the source: context-keys.ts imports vscode). */
const contextKeys = [...(/export const CONTEXT = \{([\s\S]*?)\} as const;/.exec(read('src/editor/context-keys.ts'))?.[1] ?? '')
  .matchAll(/^\s*\w+:\s*'([^']+)'/gm)].map((m) => m[1]);

/** A press of each action that carries what the person chose, as the core takes it. */
const CHOSEN: Partial<Record<ActionType, PressAction>> = {
  answer: { type: 'answer', answer: { approved: true } },
  message: { type: 'message', body: 'go on', via: 'text' },
  later: { type: 'later', until: '2026-11-24T09:00:00.000Z' },
  delegate: { type: 'delegate', to: { assistantId: 'con_b' }, mode: 'loop' },
};
const pressOf = (type: ActionType) => CHOSEN[type] ?? ({ type } as PressAction);

const shownCard = { id: 'req_1', kind: 'choice', title: 'Pick', status: 'pending', turn: 'you', version: 3 } as unknown as Card;
const by: PressedBy = { at: '2026-11-23T12:00:00.000Z', app: { id: 'app_1', name: 'Editor' } };
const done = (type: ActionType): Extract<PressOutcome, { ok: true }> => ({
  ok: true, action: type, result: { id: 'req_1', version: 4, hears: 'now', until: '2026-11-24T09:00:00.000Z' }, card: { ...shownCard, version: 4 }, holdUntil: NOW + 5_000,
});

/** The panel states a version press may be offered in: a card waiting, a notice, a hold running, snoozed, with a helper. */
const panelStates = (): PanelState[] => [
  cardMsg(card()),
  cardMsg(card({ kind: 'update', options: undefined })),
  cardMsg(card(), { undoUntil: new Date(NOW + 5_000).toISOString() }),
  cardMsg(card({ status: 'snoozed' })),
  cardMsg(card({ status: 'delegated' })),
].map((m) => reduce(initialState('req_1', undefined, 'UTC'), m, NOW));

/** Every place a row must be, each a line naming what is missing (none: the row is whole). */
function gaps(type: ActionType): string[] {
  const row = actionRow(type);
  const out: string[] = [];
  const miss = (cond: boolean, what: string) => { if (!cond) out.push(`${type}: ${what}`); };
  // The core.
  miss(type in ACTIONS, 'no row in src/sync/actions-table.ts ACTIONS (its send and leaves)');
  // The command.
  const id = `assistantCards.${row.command}`;
  miss((COMMAND_NAMES as readonly string[]).includes(row.command), `command ${row.command} not in COMMAND_NAMES`);
  const contributed = manifest.contributes.commands.find((c) => c.command === id);
  miss(contributed !== undefined, `no ${id} in package.json contributes.commands`);
  miss(contributed?.enablement === `assistantCards.${row.enablement}`, `package.json ${id} enablement is not assistantCards.${row.enablement}`);
  miss(contributed?.title === `%command.${row.command}%` && Boolean(nls[`command.${row.command}`]), `no title "command.${row.command}" in package.nls.json`);
  miss(contextKeys.includes(`assistantCards.${row.enablement}`), `no key assistantCards.${row.enablement} in src/editor/context-keys.ts CONTEXT`);
  // The panel's message.
  const bare = parseFromWebview({ type, requestId: 'r1', version: 1 });
  if (row.carries === 'version') miss(bare !== undefined, 'no message of the version alone in src/shared/protocol.ts');
  else {
    miss(bare === undefined, 'carries what the person chose, but protocol.ts takes its message with nothing chosen');
    miss(new RegExp(`case '${type}':`).test(read('src/editor/panel/panel-press.ts')), 'no case in src/editor/panel/panel-press.ts (the press its message asks for)');
  }
  // The words, where the l10n extractor finds them (the bundle holds each literal).
  const ctx = { shown: shownCard, surface: 'toast' as const, said: 'Yes', helperName: 'Helper', now: NOW };
  const panelWords = row.done.panel();
  miss(panelWords.length > 0 && bundle[panelWords] === panelWords, `its panel words "${panelWords}" are not in l10n/bundle.l10n.json (run node scripts/l10n-bundle.mjs; a literal in t(...))`);
  miss(row.done.toast(done(type), ctx).startsWith('Assistant Cards: '), 'its notification words do not say "Assistant Cards: "');
  // The hold and the action that takes it back.
  const startsHold = type in ACTIONS && rowOf(type).startsHold;
  miss(startsHold === (row.undoneBy !== undefined), `the core's startsHold is ${String(startsHold)}, its row names ${row.undoneBy ?? 'no'} undoneBy`);
  if (row.undoneBy !== undefined) {
    const back = (CARD_ACTIONS as Record<string, { button?: () => string }>)[row.undoneBy];
    miss(back?.button !== undefined && bundle[back.button()] !== undefined, `undoneBy ${row.undoneBy} is no action with a button's words`);
  }
  if (row.carries === 'version') {
    miss(row.pick !== undefined, 'no palette pick (its command is made from it: editor/commands.ts versionCommand)');
    if (row.pick) miss(bundle[row.pick.title()] !== undefined, `its pick's title "${row.pick.title()}" is not in l10n/bundle.l10n.json`);
    const b = row.panel;
    miss(b !== undefined && (PANEL_PLACES as readonly string[]).includes(b.place), 'no panel button, or its place is none of PANEL_PLACES');
    if (b) {
      miss(read('media/webview/view.ts').includes(`actionButtons(s, on, '${b.place}')`), `media/webview/view.ts shows no buttons at '${b.place}'`);
      miss(bundle[b.label()] !== undefined, `its button's words "${b.label()}" are not in l10n/bundle.l10n.json`);
      const posts = panelStates().map((s) => act.versionPress(s, type as VersionAction)).flatMap((r) => (r && 'post' in r ? [r.post] : []));
      miss(posts.length > 0 && posts.every((m) => parseFromWebview({ ...m, requestId: 'r1' }) !== undefined), 'the webview never posts it as a valid message');
    }
  }
  return out;
}

describe('the action table, whole (shared/card-actions.ts and sync/actions-table.ts)', () => {
  it('the two tables name the same actions', () => {
    assert.deepEqual(Object.keys(ACTIONS).sort(), [...ACTION_TYPES].sort());
  });

  it('every row has each of its places: command, manifest, context key, message, words, hold, pick and button', () => {
    assert.deepEqual(ACTION_TYPES.flatMap(gaps), []);
  });

  it('finds a row with a place left out, and names the place', () => {
    const was = { ...CARD_ACTIONS.takeBack };
    const rows = CARD_ACTIONS as unknown as Record<string, unknown>;
    try {
      rows.takeBack = { ...was, command: 'takeBackForgotten', panel: { ...was.panel, place: 'nowhere' } };
      const found = gaps('takeBack');
      assert.ok(found.some((g) => g.includes('not in COMMAND_NAMES')), found.join('\n'));
      assert.ok(found.some((g) => g.includes('no assistantCards.takeBackForgotten in package.json')), found.join('\n'));
      assert.ok(found.some((g) => g.includes('no panel button')), found.join('\n'));
    } finally {
      rows.takeBack = was;
    }
  });

  it('rows that share a context key need the same scopes (the key is set from them)', () => {
    const byKey = new Map<string, string>();
    for (const type of ACTION_TYPES) {
      const { enablement, needs } = actionRow(type);
      const seen = byKey.get(enablement);
      assert.ok(seen === undefined || seen === needs.join(), `${type}: ${enablement} needs ${needs.join()}, another row ${seen}`);
      byKey.set(enablement, needs.join());
    }
  });

  it('the core\'s row builds the card whole (the history line) exactly when it says so', () => {
    for (const type of ACTION_TYPES) {
      const left = rowOf(type).leaves({ ...shownCard, version: 4 }, { id: 'req_1', version: 4 }, undefined, pressOf(type), by);
      assert.equal((left.history?.length ?? 0) > 0, rowOf(type).buildsWhole, type);
    }
  });
});
