// How one card reads in the tree, the status bar and notifications: label, description, tooltip,
// icon and the context value menus key on. Pure, so it is tested without an editor.
import { t } from './l10n';
import type { CardListEntry } from '../api/schemas';
import { waitsOnYou } from './card-facts';
import { ago, seen, until } from './format';
import { plainText } from './plain-text';
import { markLookAlikes } from './look-alike-words';

export type IconColor = 'red' | 'yellow' | 'blue' | 'green' | 'gray' | undefined;

export interface CardLook {
  label: string;
  description: string;
  tooltip: string;
  icon: string; // codicon id
  color: IconColor;
  contextValue: string;
}

const KIND_ICON: Record<string, string> = {
  choice: 'list-selection',
  approval: 'pass',
  text: 'comment', // l10n-ignore: a codicon id
  questions: 'question',
  failure: 'error',
  update: 'bell',
};

const SEVERITY: Record<string, { icon: string; color: IconColor }> = {
  critical: { icon: 'flame', color: 'red' },
  error: { icon: 'error', color: 'red' },
  warning: { icon: 'warning', color: 'yellow' },
  info: { icon: 'info', color: 'blue' },
};

type Whole = Extract<CardListEntry, { summary?: string }>;
const field = <K extends keyof Whole>(c: CardListEntry, k: K): Whole[K] | undefined => (c as Whole)[k];

/**
 * The context value of a card: space-separated tokens the manifest's menus match with
 * `viewItem =~ /\bcard:pending\b/`: `card:<state>` (pending, agent, snoozed, delegated, done,
 * answered), plus `card:update`, `card:highStakes` and `card:held` (answered, undo still possible).
 */
export function contextValueOf(c: CardListEntry, nowMs = Date.now()): string {
  const state = c.status === 'pending' && c.turn !== 'you' ? 'agent' : c.status;
  const tokens = [`card:${state}`];
  if (c.kind === 'update') tokens.push('card:update');
  if (c.highStakes) tokens.push('card:highStakes');
  const undoUntil = field(c, 'undoUntil');
  if (c.status === 'answered' && undoUntil && Date.parse(undoUntil) > nowMs) tokens.push('card:held');
  return tokens.join(' ');
}

/**
 * What a card's row says that its version fixes: its untrusted words made plain once. The clock's
 * words ("2 minutes ago") and its state are added at each build (`lookOf`); a tree keeps these
 * per card version (card-row-words.ts), as a row is built again each minute.
 */
export interface CardWords {
  label: string;
  /** The tooltip's lines before the description: title, who asked, summary. */
  tipHead: string[];
  /** The description's parts before the clock's words (a notice's webhook and sender). */
  from: string[];
  /** The description's parts after them: urgency, blocking, high stakes. */
  marks: string[];
}

/** A row's label at most (the asker, its agent and the title). */
const ROW_MAX = 120;

/**
 * Whether `title` begins with `name` as a whole word, after any marks that open it (the
 * pseudo-locale's "⟦"): then the row's title already says who asks. Only at its start, so a name
 * that a title merely mentions later (an asker named like a command it runs) still leads the row.
 */
export function beginsWithName(title: string, name: string): boolean {
  if (!name) return false;
  const start = /^[^\p{L}\p{N}]*/u.exec(title)![0].length;
  return title.startsWith(name, start) && !/^[\p{L}\p{N}\p{M}]/u.test(title.slice(start + name.length));
}

export function cardWords(c: CardListEntry): CardWords {
  const assistant = field(c, 'assistant');
  const agent = field(c, 'agent');
  const from: string[] = [];
  if (c.kind === 'update') {
    const hook = field(c, 'webhook');
    const sender = field(c, 'from');
    if (hook?.name) from.push(plainText(hook.name, 40));
    if (sender) from.push(plainText(sender, 40));
  }
  // Who asks leads the label: two assistants asking the same question differ at any sidebar width.
  // A title that begins with the assistant's own name (a CLI's card: "Claude Code asks to run: …")
  // already leads with it: the row says it once, its agent before the title (#54).
  const marked = markLookAlikes(c.title);
  const agentName = agent ? plainText(agent.name, 32) : '';
  const leadsWithName = c.kind !== 'update' && !!assistant && beginsWithName(plainText(marked, ROW_MAX - (agentName ? agentName.length + 2 : 0)), plainText(assistant.name, ROW_MAX));
  const asker = c.kind !== 'update' && assistant ? (leadsWithName ? agentName : plainText(agent ? `${assistant.name} · ${agent.name}` : assistant.name, 32)) : '';
  const marks: string[] = [];
  if (c.urgency) marks.push(plainText(urgencyWords(c.urgency), 20));
  if (c.blocking) marks.push(t('blocking'));
  if (c.highStakes) marks.push(t('high stakes'));
  const summary = field(c, 'summary');
  const tipHead = [plainText(c.title, 300)];
  if (assistant) tipHead.push(t('Asked by {0} ({1})', plainText(agent ? `${assistant.name} · ${agent.name}` : assistant.name, 80), plainText(assistant.app, 40)));
  if (summary) tipHead.push(plainText(summary, 500));
  // A look-alike word's odd letters show as marks, as in the panel (#52).
  const title = plainText(marked, ROW_MAX - (asker ? asker.length + 2 : 0)) || t('(no title)');
  return { label: asker ? t('{0}: {1}', asker, title) : title, tipHead, from, marks };
}

/** How the card reads at `nowMs`; `words` are its version's (`cardWords`), made again when not given. */
export function lookOf(c: CardListEntry, nowMs: number, timeZone?: string, words: CardWords = cardWords(c)): CardLook {
  const parts: string[] = [...words.from];
  if (c.kind === 'update') parts.push(seen(field(c, 'count'), field(c, 'lastAt') ?? field(c, 'createdAt'), nowMs));
  if (c.status === 'snoozed') {
    const u = field(c, 'until');
    if (u) parts.push(t('back {0}', until(u, nowMs, timeZone)));
  }
  if (c.status === 'done') {
    const at = field(c, 'changedAt');
    if (at) parts.push(ago(at, nowMs));
  }
  parts.push(...words.marks);

  let icon = KIND_ICON[c.kind] ?? 'circle-outline';
  let color: IconColor;
  if (c.kind === 'update') {
    const sev = SEVERITY[field(c, 'severity') ?? ''];
    if (sev) ({ icon, color } = sev);
  } else if (c.kind === 'failure') color = 'red';
  if (c.highStakes) { icon = 'shield'; color = 'yellow'; }
  else if (c.status === 'done') color = 'gray';
  else if (c.blocking && waitsOnYou(c) && !color) color = 'red';

  const tip = [...words.tipHead, parts.join(' · ')];
  if (c.highStakes) tip.push(t('High stakes: can only be answered in the browser.'));

  return {
    label: words.label,
    description: parts.join(' · '),
    tooltip: tip.filter(Boolean).join('\n'),
    icon,
    color,
    contextValue: contextValueOf(c, nowMs),
  };
}

/** A plan step's state: ours in words when we know it, else the service's own word (an open set). */
export function stepStateWords(state: string): string {
  switch (state) {
    case 'done': return t('done');
    case 'failed': return t('failed');
    case 'pending': return t('pending');
    case 'running': return t('running');
    case 'skipped': return t('skipped');
    default: return state;
  }
}

/** A notice's severity: ours in words when we know it, else the service's own word (an open set). */
export function severityWords(severity: string): string {
  switch (severity) {
    case 'critical': return t('critical');
    case 'error': return t('error');
    case 'warning': return t('warning');
    case 'info': return t('info');
    default: return severity;
  }
}

/** An agent's state: ours in words when we know it, else the service's own word (an open set). */
export function agentStateWords(state: string): string {
  switch (state) {
    case 'live': return t('live');
    case 'recent': return t('recent');
    case 'quiet': return t('quiet');
    default: return state;
  }
}

/** A card's urgency: ours in words for the values the spec's examples and our bridge use, else the service's own word. */
export function urgencyWords(urgency: string): string {
  switch (urgency) {
    case 'now': return t('now');
    case 'today': return t('today');
    default: return urgency;
  }
}
