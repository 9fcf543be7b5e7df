// What an hour of real use showed, in the pure parts of the editor: who asks leads the tree
// label, the history in local times and words, what was answered, the blocking badge readable in
// every built-in theme, and the sign-in welcome not claiming a page opened.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Card, CardListEntry } from '../../src/api/schemas';
import { afterPress } from '../../src/sync/after-press';
import { answerSummary } from '../../src/shared/answer-summary';
import { lookOf } from '../../src/shared/card-view';
import { historyLine } from '../../src/shared/history-line';
import { groupOfCard } from '../../src/sync';

const NOW = Date.parse('2026-11-22T12:00:00Z');
/** The checkout (this file also runs bundled under out/ in the extension host). */
const ROOT = ((): string => {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'media/webview/main.css')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
})();
const base = { id: 'req_1', version: 3, status: 'pending', turn: 'you', kind: 'choice', title: 'Which database should the new service use?' } as Card;

describe('after an hour of use: looks', () => {
  it('two assistants asking the same question differ at the start of the tree label, and the tooltip names the asker', () => {
    const a = lookOf({ ...base, assistant: { id: 'con_a', name: 'Claude', app: 'claude-code' }, agent: { id: 'agt_1', name: 'main' } } as CardListEntry, NOW);
    const b = lookOf({ ...base, assistant: { id: 'con_b', name: 'Codex', app: 'codex' } } as CardListEntry, NOW);
    assert.ok(a.label.startsWith('Claude · main: '), a.label);
    assert.ok(b.label.startsWith('Codex: '), b.label);
    assert.match(a.tooltip, /Asked by Claude · main \(claude-code\)/);
    const long = lookOf({ ...base, title: 'x'.repeat(500), assistant: { id: 'con_a', name: 'C'.repeat(100), app: 'a' } } as CardListEntry, NOW);
    assert.ok(long.label.length <= 120, 'still bounded');
  });

  it('history: a message by its words (never its id), Later in local time like the rest', () => {
    const tz = 'Europe/Berlin';
    const msg = historyLine({ at: '2026-11-22T11:00:00Z', type: 'message', by: 'person', detail: 'msg_0a1b2c' }, tz, { msg_0a1b2c: 'use the staging db' });
    assert.equal(msg.detail, '“use the staging db”');
    const unknown = historyLine({ at: '2026-11-22T11:00:00Z', type: 'message', by: 'person', detail: 'msg_0a1b2c' }, tz);
    assert.doesNotMatch(unknown.detail, /msg_/);
    const later = historyLine({ at: '2026-11-22T11:00:00Z', type: 'later', by: 'person', detail: '2026-11-22T17:00:00.000Z' }, tz);
    const local = new Date('2026-11-22T17:00:00Z').toLocaleString(undefined, { timeZone: tz });
    assert.equal(later.detail, `until ${local}`);
    assert.doesNotMatch(later.detail, /T17:00|Z$/);
    assert.equal(later.at, new Date('2026-11-22T11:00:00Z').toLocaleString(undefined, { timeZone: tz }));
  });

  it('what was answered, in the card’s own words', () => {
    const c = { ...base, options: [{ id: 'pg', label: 'Postgres' }, { id: 'sq', label: 'SQLite' }] } as Card;
    assert.equal(answerSummary(c, { choiceIds: ['sq'], note: { text: 'keep it small' }, via: 'text' }), 'You chose: SQLite.\nNote: keep it small');
    assert.equal(answerSummary({ ...base, kind: 'approval' } as Card, { approved: false }), 'You declined.');
    assert.equal(answerSummary(base, { theyDecide: true }), 'You left the decision to the assistant.');
    const q = { ...base, kind: 'questions', asks: [{ id: 'a1', title: 'Port?' }, { id: 'a2', title: 'Lang?', options: [{ id: 'ts', label: 'TypeScript' }] }] } as Card;
    assert.equal(answerSummary(q, { answers: { a1: '8080', a2: 'ts' } }), 'Port?: 8080\nLang?: TypeScript');
  });
});

describe('after an hour of use: the model takes a press result at once', () => {
  it('an answer: answered with its hold (Undo in the tree), in Waiting on the assistant; a notice goes to Done', () => {
    const until = '2026-11-22T12:00:05.000Z';
    const answered = afterPress(base, { type: 'answer', answer: { choiceIds: ['a'] } }, { id: 'req_1', status: 'answered', version: 4, undoUntil: until }, Date.parse(until));
    assert.equal(answered.version, 4);
    assert.equal(answered.status, 'answered');
    assert.equal(groupOfCard(answered), 'agent');
    assert.match(lookOf(answered, NOW).contextValue, /\bcard:held\b/);
    const undone = afterPress(answered, { type: 'undo' }, { id: 'req_1', status: 'pending', version: 5 }, undefined);
    assert.equal(groupOfCard(undone), 'pending');
    assert.doesNotMatch(lookOf(undone, NOW).contextValue, /card:held/);
    const later = afterPress(base, { type: 'later', until: '2026-11-23T08:00:00Z' }, { id: 'req_1', status: 'snoozed', version: 4, until: '2026-11-23T08:00:00Z' }, undefined);
    assert.equal(groupOfCard(later), 'snoozed');
    const notice = afterPress({ ...base, kind: 'update' }, { type: 'gotIt' }, { id: 'req_1', status: 'answered', version: 4, undoUntil: until }, Date.parse(until));
    assert.equal(groupOfCard(notice), 'done');
  });
});

// Theme colours of the built-in themes (VS Code 1.139: theme-defaults/themes/*.json and the
// colour registry's defaults where a theme leaves a colour out).
const THEMES: Record<string, Record<string, string>> = {
  'Light 2026': { 'foreground': '#202020', 'editor-background': '#FFFFFF', 'badge-background': '#0069CC', 'badge-foreground': '#FFFFFF', 'inputValidation-errorBackground': '#FDEDED' },
  'Dark 2026': { 'foreground': '#BFBFBF', 'editor-background': '#121314', 'badge-background': '#307E9F', 'badge-foreground': '#FFFFFF', 'inputValidation-errorBackground': '#3A1D1D' },
  'Light Modern': { 'foreground': '#3B3B3B', 'editor-background': '#FFFFFF', 'badge-background': '#CCCCCC', 'badge-foreground': '#3B3B3B', 'inputValidation-errorBackground': '#F2DEDE' },
  'Dark Modern': { 'foreground': '#CCCCCC', 'editor-background': '#1F1F1F', 'badge-background': '#616161', 'badge-foreground': '#F8F8F8', 'inputValidation-errorBackground': '#5A1D1D' },
  'High Contrast': { 'foreground': '#FFFFFF', 'editor-background': '#000000', 'badge-background': '#000000', 'badge-foreground': '#FFFFFF', 'inputValidation-errorBackground': '#000000' },
  'High Contrast Light': { 'foreground': '#292929', 'editor-background': '#FFFFFF', 'badge-background': '#0F4A85', 'badge-foreground': '#FFFFFF', 'inputValidation-errorBackground': '#FFFFFF' },
};

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}
const contrast = (a: string, b: string) => { const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p); return (x! + 0.05) / (y! + 0.05); };

/** The first theme variable a declaration of the rule names (its fallback ignored). */
function ruleVar(css: string, selector: string, property: string): string | undefined {
  const rules = [...css.matchAll(/([^{}]+)\{([^}]*)\}/g)].filter((m) => m[1]!.split(',').some((s) => s.trim() === selector));
  let found: string | undefined;
  for (const r of rules) {
    const decl = new RegExp(`(?:^|;)\\s*${property}\\s*:\\s*var\\(--vscode-([A-Za-z-]+)`).exec(r[2]!);
    if (decl) found = decl[1];
  }
  return found;
}

describe('after an hour of use: the blocking badge', () => {
  it('has text contrast of at least 4.5:1 in every built-in theme', () => {
    const css = readFileSync(path.join(ROOT, 'media/webview/main.css'), 'utf8');
    const fg = ruleVar(css, '.badge.blocking', 'color') ?? ruleVar(css, '.badge', 'color');
    const bg = ruleVar(css, '.badge.blocking', 'background') ?? ruleVar(css, '.badge', 'background');
    assert.ok(fg && bg, 'the badge names theme colours');
    for (const [theme, colours] of Object.entries(THEMES)) {
      const f = colours[fg]; const b = colours[bg];
      assert.ok(f && b, `${theme} has ${fg} and ${bg}`);
      assert.ok(contrast(f, b) >= 4.5, `${theme}: ${fg} ${f} on ${bg} ${b} is ${contrast(f, b).toFixed(2)}:1`);
    }
  });
});

describe('after an hour of use: the sign-in welcome', () => {
  it('does not claim a page opened before one did', () => {
    const nls = JSON.parse(readFileSync(path.join(ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
    assert.doesNotMatch(nls['welcome.signingIn']!, /page that opened|opened page/);
    assert.match(nls['welcome.signingIn']!, /code/);
  });
});
