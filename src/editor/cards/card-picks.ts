// Quick picks so every action works from the palette without the mouse: pick a card, then an
// option. Labels come from untrusted card text, so they pass through plainText (no control or
// direction-override characters, no `$(icon)`, bounded length).
import * as vscode from 'vscode';
import { say } from '../base/say';
import type { Card, CardListEntry } from '../../api/schemas';
import type { ClientCore, Group } from '../../sync';
import { agentStateWords, lookOf, stepStateWords } from '../../shared/card-view';
import { approvalAnswers } from '../../shared/approval';
import { localDateTimeToIso } from '../../shared/format';
import { helperChoices, markedFailedStep } from '../../shared/hand-over';
import { loopOnly, loopOnlyWords } from '../../shared/loop-only';
import { plainText } from '../../shared/plain-text';
import { readProposal } from '../../shared/proposal';
import { paletteShowsWhole, paletteTitle } from '../../shared/palette-rules';
import { laterPresets, withNote } from '../../shared/answer-choices';
import type { AnswerPayload } from '../../shared/protocol';

interface CardPickItem extends vscode.QuickPickItem { id?: string }

const groupTitles = (): Record<Group, string> => ({
  pending: vscode.l10n.t('Waiting on you'), agent: vscode.l10n.t('Waiting on the assistant'), snoozed: vscode.l10n.t('Later'), delegated: vscode.l10n.t('With a helper'), done: vscode.l10n.t('Done'),
});

/** Pick a card from the given groups, filtered by `accept`. Undefined when cancelled or none. */
export async function pickCard(
  core: ClientCore,
  groups: readonly Group[],
  title: string,
  accept: (c: CardListEntry) => boolean = () => true,
): Promise<string | undefined> {
  const items: CardPickItem[] = [];
  const now = Date.now();
  for (const g of groups) {
    const cards = core.cards.list(g).filter(accept);
    if (!cards.length) continue;
    items.push({ label: groupTitles()[g], kind: vscode.QuickPickItemKind.Separator });
    for (const c of cards) {
      const look = lookOf(c, now);
      items.push({ id: c.id, label: `$(${look.icon}) ${look.label}`, description: look.description });
    }
  }
  if (!items.length) {
    void say.info(vscode.l10n.t('Assistant Cards: no card fits "{0}".', title));
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(items, { title, matchOnDescription: true, placeHolder: vscode.l10n.t('Pick a card') });
  return pick?.id;
}

type AnswerPick = { kind: 'answer'; body: AnswerPayload } | { kind: 'gotIt' } | { kind: 'open' } | undefined;

/** A row the answer's picks add to the card's own: "You decide" and the note, as the panel offers them. */
type Extra = 'decide' | 'note';
interface ExtraItem extends vscode.QuickPickItem { extra?: Extra }

/** "You decide" and "Add a note…" (the note so far in its description), after the card's own rows. */
function extraRows(note: string | undefined): ExtraItem[] {
  return [
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    { label: vscode.l10n.t('$(sparkle) You decide'), description: vscode.l10n.t('hand the decision back to the assistant'), extra: 'decide' },
    note
      ? { label: vscode.l10n.t('$(comment) Change the note…'), description: plainText(note, 80), extra: 'note' }
      : { label: vscode.l10n.t('$(comment) Add a note…'), description: vscode.l10n.t('words for the assistant with your answer'), extra: 'note' },
  ];
}

/** The note to the assistant, as the panel's "Note to the assistant (optional)"; undefined when Esc keeps the one before. */
async function askNote(title: string, note: string | undefined): Promise<string | undefined> {
  return vscode.window.showInputBox({ title, prompt: vscode.l10n.t('Note to the assistant (optional)'), value: note ?? '' });
}

/**
 * Asks the person for an answer to a card, by kind, over its words shown whole: the pick's title
 * is the card's title and summary. Words that do not fit a pick, or hold a hidden character: no
 * pick, `open` (the card's panel shows them all; shared/palette-rules.ts). As in the panel (#38),
 * every kind but a notice offers "You decide", and any answer can carry a note: "Add a note…"
 * asks for it, then the same pick shows again.
 */
export async function pickAnswer(card: Card): Promise<AnswerPick> {
  if (!paletteShowsWhole(card)) return { kind: 'open' };
  const title = paletteTitle(card);
  const proposed = await pickProposal(card);
  if (proposed === 'cancelled') return undefined;
  if (proposed && proposed !== 'answerYourself') return { kind: 'answer', body: proposed };
  if (card.kind === 'update') {
    const ok = await vscode.window.showQuickPick([{ label: vscode.l10n.t('$(pass) Got it'), description: vscode.l10n.t('close this notice') }], { title });
    return ok ? { kind: 'gotIt' } : undefined;
  }
  let note: string | undefined;
  for (;;) {
    const step = await answerStep(card, title, note);
    if (step === undefined) return undefined;
    if (step === 'note') {
      const typed = await askNote(title, note);
      if (typed !== undefined) note = typed.trim() || undefined;
      continue;
    }
    return { kind: 'answer', body: withNote(step === 'decide' ? { theyDecide: true } : step, note) };
  }
}

/** One round of the answer's picks: the answer, "You decide", the note asked for, or undefined when cancelled. */
async function answerStep(card: Card, title: string, note: string | undefined): Promise<AnswerPayload | Extra | undefined> {
  const extra = extraRows(note);
  const options = card.options ?? [];
  if (card.kind === 'approval') {
    const [approve, decline] = approvalAnswers();
    // The card's own options (a CLI's "Always allow: <rule> in <file>", #54) approve with the option named.
    const p = await vscode.window.showQuickPick<ExtraItem & { approved?: boolean; id?: string }>([
      { label: `$(check) ${approve.label}`, approved: true },
      ...options.map((o) => ({ label: `$(check-all) ${plainText(o.label, Number.MAX_SAFE_INTEGER)}`, approved: true, id: o.id })),
      { label: `$(close) ${decline.label}`, approved: false }, ...extra,
    ], { title });
    if (!p) return undefined;
    return p.extra ?? { approved: p.approved === true, ...(p.id ? { choiceIds: [p.id] } : {}) };
  }
  if (card.kind !== 'failure' && card.kind !== 'questions' && options.length && !card.multi) {
    const p = await vscode.window.showQuickPick<ExtraItem & { id?: string }>([...optionRows(card), ...extra], { title, placeHolder: vscode.l10n.t('Pick an option') });
    if (!p) return undefined;
    return p.extra ?? (p.id ? { choiceIds: [p.id] } : undefined);
  }
  if (card.kind === 'failure' && card.steps?.length) {
    // The steps pick leads, the card's own mark active; "You decide" and the note follow the steps.
    const failedStep = await pickFailedStep(card, extra);
    if (failedStep === 'cancelled') return undefined;
    if (typeof failedStep !== 'number') return failedStep;
    return failureRest(card, title, failedStep);
  }
  // Kinds answered in several steps or in words: first how (answer, "You decide", a note).
  const how = await vscode.window.showQuickPick<ExtraItem>([{ label: answerWayLabel(card) }, ...extra], { title });
  if (!how) return undefined;
  if (how.extra) return how.extra;
  return answerOwnWay(card, title);
}

/** The first pick's "answer" row, in the words of what follows it (answerOwnWay). */
function answerWayLabel(card: Card): string {
  if (card.kind === 'questions') return vscode.l10n.t('$(edit) Answer the questions…');
  if (card.kind === 'failure') return vscode.l10n.t('$(edit) Answer…');
  if (card.options?.length) return vscode.l10n.t('$(checklist) Pick the options…');
  return vscode.l10n.t('$(edit) Write the answer…');
}

/** The card's options as rows: numbered, the recommended ones marked. */
function optionRows(card: Card): (vscode.QuickPickItem & { id: string })[] {
  const rec = new Set(card.recommendedIds ?? []);
  return (card.options ?? []).map((o, i) => ({
    label: `${i < 9 ? `${i + 1}. ` : ''}${plainText(o.label, 200)}`,
    description: rec.has(o.id) ? vscode.l10n.t('★ recommended') : '',
    id: o.id,
  }));
}

/** The answer itself, by kind, after "Answer…" in the first pick. */
async function answerOwnWay(card: Card, title: string): Promise<AnswerPayload | undefined> {
  switch (card.kind) {
    case 'questions': {
      const answers: Record<string, string> = {};
      for (const ask of card.asks ?? []) {
        let v: string | undefined;
        if (ask.options?.length) {
          v = (await vscode.window.showQuickPick(ask.options.map((o) => ({ label: plainText(o.label, 200), id: o.id })), { title: plainText(ask.title, 100) }))?.id;
        } else {
          v = await vscode.window.showInputBox({ title: plainText(ask.title, 100), prompt: vscode.l10n.t('Your answer') });
        }
        if (v === undefined) return undefined;
        answers[ask.id] = v;
      }
      return { answers };
    }
    case 'failure': return failureRest(card, title, undefined);
    default: {
      if (card.options?.length) {
        const p = await vscode.window.showQuickPick(optionRows(card), { title, canPickMany: true, placeHolder: vscode.l10n.t('Pick one or more') });
        return p?.length ? { choiceIds: p.map((x) => x.id) } : undefined;
      }
      const text = await vscode.window.showInputBox({ title, prompt: vscode.l10n.t('Your answer'), validateInput: (v) => (v.trim() ? undefined : vscode.l10n.t('Write an answer')) });
      return text === undefined ? undefined : { text, via: 'text' };
    }
  }
}

/** A failure's answer after its step: an option (when it offers some) and words for the assistant. */
async function failureRest(card: Card, title: string, failedStep: number | undefined): Promise<AnswerPayload | undefined> {
  const options = card.options ?? [];
  let choiceIds: string[] | undefined;
  if (options.length) {
    const p = await vscode.window.showQuickPick(options.map((o) => ({ label: plainText(o.label, 200), id: o.id })), { title, placeHolder: vscode.l10n.t('Pick an option') });
    if (!p) return undefined;
    choiceIds = [p.id];
  }
  const text = await vscode.window.showInputBox({ title, prompt: vscode.l10n.t('What to tell the assistant (optional)') });
  if (text === undefined) return undefined;
  const body: AnswerPayload = { ...(failedStep !== undefined ? { failedStep } : {}), ...(choiceIds ? { choiceIds } : {}), ...(text.trim() ? { text, via: 'text' as const } : {}) };
  // The service needs something to hear: with no steps, no options and no words, nothing is sent.
  return Object.keys(body).length ? body : undefined;
}

/**
 * A `loop` helper's proposal, in the card's words: "Accept" sends it as the answer (one press),
 * "Answer yourself" goes on to the card's own picks. Undefined when there is no proposal.
 */
async function pickProposal(card: Card): Promise<Record<string, unknown> | 'cancelled' | 'answerYourself' | undefined> {
  const view = readProposal(card);
  if (!view) return undefined;
  const words = plainText(view.lines.join(' · '), Number.MAX_SAFE_INTEGER);
  const items: (vscode.QuickPickItem & { id: 'accept' | 'yourself' })[] = [
    ...(view.accept ? [{ label: vscode.l10n.t('$(check) Accept the helper\'s proposal'), detail: words, id: 'accept' as const }] : []),
    { label: vscode.l10n.t('$(edit) Answer otherwise'), ...(view.accept ? {} : { detail: words }), id: 'yourself' as const },
  ];
  const p = await vscode.window.showQuickPick(items, { title: vscode.l10n.t('The helper proposes: {0}', paletteTitle(card)), placeHolder: words });
  if (!p) return 'cancelled';
  return p.id === 'accept' && view.accept ? { ...view.accept } : 'answerYourself';
}

/** The step that failed, as the person says; the card's own mark is the one picked by default. `extra`: rows after the steps. */
async function pickFailedStep(card: Card, extra: readonly ExtraItem[]): Promise<number | Extra | 'cancelled'> {
  const steps = card.steps ?? [];
  const items: (ExtraItem & { index?: number })[] = steps.map((st, i) => ({
    label: `${i + 1}. ${plainText(st.title, 150)}`,
    description: [st.state ? plainText(stepStateWords(st.state), 20) : '', i === markedFailedStep(card) ? vscode.l10n.t('the card marks this one') : ''].filter(Boolean).join(' · '),
    ...(st.detail ? { detail: plainText(st.detail, 200) } : {}),
    index: i,
  }));
  const marked = markedFailedStep(card);
  const qp = vscode.window.createQuickPick<ExtraItem & { index?: number }>();
  qp.title = vscode.l10n.t('Which step failed? {0}', paletteTitle(card));
  qp.placeholder = vscode.l10n.t('Pick the step that failed');
  qp.items = [...items, ...extra];
  const active = marked !== undefined ? items[marked] : undefined;
  if (active) qp.activeItems = [active];
  const picked = await new Promise<number | Extra | 'cancelled'>((resolve) => {
    qp.onDidAccept(() => {
      const row = qp.selectedItems[0] ?? qp.activeItems[0];
      resolve(row?.extra ?? row?.index ?? 'cancelled');
    });
    qp.onDidHide(() => resolve('cancelled'));
    qp.show();
  });
  qp.dispose();
  return picked;
}

/** "1h", "tonight", "tomorrow" or an ISO time from a typed local date and time. */
export async function pickLater(timeZone: string): Promise<string | undefined> {
  // The panel's own presets and words (shared/answer-choices.ts).
  const p = await vscode.window.showQuickPick<vscode.QuickPickItem & { id: string }>([
    ...laterPresets().map((x) => ({ label: x.label, id: x.until })), { label: vscode.l10n.t('Pick a date and time…'), id: 'custom' },
  ], { title: vscode.l10n.t('Later (time zone {0})', timeZone) });
  if (!p) return undefined;
  if (p.id !== 'custom') return p.id;
  const typed = await vscode.window.showInputBox({
    title: vscode.l10n.t('Later until'), prompt: vscode.l10n.t('Local date and time, e.g. 2026-11-23 09:30 ({0})', timeZone),
    validateInput: (v) => (toIso(v, timeZone) ? undefined : vscode.l10n.t('Use YYYY-MM-DD HH:MM')),
  });
  return typed === undefined ? undefined : toIso(typed, timeZone);
}

function toIso(v: string, tz: string): string | undefined {
  const m = /^\s*(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})\s*$/.exec(v);
  return m ? localDateTimeToIso(m[1]!, m[2]!, tz) : undefined;
}

/**
 * The helper, the agent (or any), the mode and a note. The asking assistant is never offered: a
 * card is not handed to the one that asked it.
 */
export async function pickHelper(core: ClientCore, card: Card): Promise<{ assistantId: string; agentId?: string; mode: 'freely' | 'loop'; note?: string; helperName: string } | undefined> {
  await core.assistants.refresh().catch(() => undefined);
  const list = helperChoices(core.assistants.list(), card);
  if (!list.length) { void say.info(vscode.l10n.t('Assistant Cards: no other assistant is in reach to hand over to.')); return undefined; }
  const a = await vscode.window.showQuickPick(list.map((x) => ({ label: plainText(x.name, 80), description: `${plainText(x.appName, 40)} · ${plainText(x.machine.name, 40)}`, id: x.id })), { title: vscode.l10n.t('Hand over to'), placeHolder: vscode.l10n.t('Pick the helper') });
  if (!a) return undefined;
  const agents = list.find((x) => x.id === a.id)?.agents ?? [];
  let agent: { id: string; label: string } | undefined;
  if (agents.length) {
    const g = await vscode.window.showQuickPick([{ label: vscode.l10n.t('Any agent'), id: '' }, ...agents.map((x) => ({ label: plainText(x.name, 80), description: plainText(agentStateWords(x.state), 20), id: x.id }))], { title: vscode.l10n.t('Which agent of {0}', a.label) });
    if (!g) return undefined;
    agent = g.id ? { id: g.id, label: g.label } : undefined;
  }
  // A CLI's command is handed over in `loop` only: the pick says why and offers nothing else (#52).
  const loop = { label: vscode.l10n.t('Loop me in'), description: vscode.l10n.t('the helper\'s answer comes to me first'), id: 'loop' as const };
  const m = await vscode.window.showQuickPick<vscode.QuickPickItem & { id: 'freely' | 'loop' }>(loopOnly(card)
    ? [{ ...loop, detail: loopOnlyWords() }]
    : [{ label: vscode.l10n.t('Freely'), description: vscode.l10n.t('the helper\'s answer goes straight to the asking assistant'), id: 'freely' as const }, loop], { title: vscode.l10n.t('Mode') });
  if (!m) return undefined;
  const note = await vscode.window.showInputBox({ title: vscode.l10n.t('Note for the helper (optional)') });
  if (note === undefined) return undefined;
  const helperName = agent ? `${a.label} · ${agent.label}` : a.label;
  return { assistantId: a.id, ...(agent ? { agentId: agent.id } : {}), mode: m.id, ...(note.trim() ? { note: note.trim() } : {}), helperName };
}
