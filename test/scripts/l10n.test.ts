// Every word the person reads in the editor goes through l10n: `vscode.l10n.t` in src/editor, and
// in the webview only strings the host sent (already translated). This check reads the sources
// with the TypeScript compiler and fails on a string literal that reads as words (two words, or
// one capitalised word) outside `l10n.t(...)`, a log call, an import, a type or a key. A literal
// that is not for people (a protocol value, a setting id) says so with `// l10n-ignore` on its line.
// Dates and times: no fixed locale (`en-GB`, `en-US`) in src/editor or media/.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';
import { ago, dateTime } from '../../src/shared/format';
import * as l10n from '../../src/shared/l10n';
import { historyLine } from '../../src/shared/history-line';

const root = path.resolve(__dirname, '..', '..');
const FOLDERS = ['src/editor', 'src/shared', 'src/words', 'media/webview'];
// Words: whitespace between letters (a phrase), or one capitalised word (a button).
const isWords = (s: string) => (/[A-Za-z]{2,}/.test(s) && /[A-Za-z][^\S\n]*\S*\s+\S*[A-Za-z]/.test(s.trim())) || /^[A-Z][a-z]{2,}[.!?…]?$/.test(s.trim());
/** Attribute and option names whose values are not words for people. */
const NOT_WORDS = new Set(['class', 'className', 'key', 'type', 'id', 'role', 'for', 'autocomplete', 'contextValue', 'command', 'rel', 'href', 'src']);
const LOG_METHODS = new Set(['info', 'warn', 'error', 'debug', 'trace', 'log', 'appendLine']);

function files(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) files(rel, out);
    else if (e.name.endsWith('.ts')) out.push(rel);
  }
  return out;
}

/** `// l10n-ignore` on the literal's line, or on the line before it. */
const ignored = (lines: string[], line: number) => /l10n-ignore/.test(lines[line] ?? '') || /l10n-ignore/.test(lines[line - 1] ?? '');

function calleeName(call: ts.CallExpression): string {
  const e = call.expression;
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return `${ts.isIdentifier(e.expression) ? e.expression.text : ts.isPropertyAccessExpression(e.expression) ? e.expression.name.text : ''}.${e.name.text}`;
  return '';
}

/** Inside a call that translates, logs or fails with a developer's message. */
/** The value of `class: ...`, `item.contextValue = ...` (through `a ? b : c` and `a ?? b`). */
function notWordsValue(node: ts.Node): boolean {
  let q = node;
  while (q.parent && (ts.isConditionalExpression(q.parent) || ts.isParenthesizedExpression(q.parent)
    || (ts.isBinaryExpression(q.parent) && q.parent.operatorToken.kind !== ts.SyntaxKind.EqualsToken))) q = q.parent;
  const p = q.parent;
  if (p && ts.isPropertyAssignment(p) && p.initializer === q) return NOT_WORDS.has(p.name.getText().replace(/['"]/g, ''));
  if (p && ts.isBinaryExpression(p) && p.right === q && ts.isPropertyAccessExpression(p.left)) return NOT_WORDS.has(p.left.name.text);
  return false;
}

/** `e.key === 'Enter'`, `el.tagName === 'BUTTON'`: a value compared with a field of code, not words. */
function comparedWithCode(node: ts.Node): boolean {
  const p = node.parent;
  if (!p || !ts.isBinaryExpression(p) || ![ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(p.operatorToken.kind)) return false;
  const other = p.left === node ? p.right : p.left;
  return ts.isPropertyAccessExpression(other) && ['key', 'tagName', 'kind', 'type', 'status', 'code'].includes(other.name.text);
}

function exempt(node: ts.Node): boolean {
  if (notWordsValue(node) || comparedWithCode(node)) return true;
  for (let p: ts.Node | undefined = node.parent; p; p = p.parent) {
    if (ts.isImportDeclaration(p) || ts.isExportDeclaration(p) || ts.isTypeNode(p) || ts.isLiteralTypeNode(p)) return true;
    if (ts.isCallExpression(p)) {
      const name = calleeName(p);
      if (name === 'l10n.t' || name === 't' && p.arguments[0] === node) return true;
      const method = name.split('.').pop() ?? '';
      if (LOG_METHODS.has(method) && /log|console|channel/i.test(name)) return true;
    }
    if (ts.isPropertyAssignment(p) && p.name === node) return true;
    // The product's name is not translated (VS Code's own convention for extension names).
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && node.text === 'Assistant Cards') return true;
    if (ts.isElementAccessExpression(p) && p.argumentExpression === node) return true;
  }
  return false;
}

/**
 * A sentence glued from pieces: a template with a word beside a value (`back ${when}`, `${n} cards
 * wait`). A translator never sees the whole sentence, so it cannot be put in another order.
 */
function gluedWords(node: ts.Node): boolean {
  if (!ts.isTemplateExpression(node) || (node.parent && ts.isTaggedTemplateExpression(node.parent))) return false;
  const pieces = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)];
  return pieces.some((piece, i) => {
    const tokens = piece.replace(/\$\([^)]*\)/g, ' ').split(/\s+/);
    // A token touching a value is part of a name or an id (`opt-${i}`, `card:${state}`), not a word.
    if (i > 0 && !/^\s/.test(piece)) tokens.shift();
    if (i < pieces.length - 1 && !/\s$/.test(piece)) tokens.pop();
    return tokens.some((w) => /^[A-Za-z]{2,}[:,.!?]?$/.test(w));
  });
}

/** One word pushed into what is shown (`parts.push('blocking')`): a word a person reads. */
function pushedWord(node: ts.Node, text: string): boolean {
  const p = node.parent;
  return (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && /^[a-z]{3,}$/.test(text)
    && !!p && ts.isCallExpression(p) && ts.isPropertyAccessExpression(p.expression) && p.expression.name.text === 'push';
}

function literalText(node: ts.Node): string | undefined {
  let text: string | undefined;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) text = node.text;
  else if (ts.isTemplateExpression(node)) text = [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' ');
  // A lit-html template (html`...`) is markup: its words are what is left outside the tags.
  if (text !== undefined && node.parent && ts.isTaggedTemplateExpression(node.parent) && node.parent.tag.getText() === 'html') {
    text = text.replace(/<[^>]*>/g, ' ');
  }
  return text;
}

export function violations(): string[] {
  return FOLDERS.flatMap((d) => files(d)).flatMap((rel) => violationsIn(rel, fs.readFileSync(path.join(root, rel), 'utf8')));
}

/** What one file's source holds outside l10n: `file:line: "text"` each. */
export function violationsIn(rel: string, text: string): string[] {
  const out: string[] = [];
  const lines = text.split('\n');
  const sf = ts.createSourceFile(rel, text, ts.ScriptTarget.ES2022, true);
  const visit = (node: ts.Node) => {
    const lit = literalText(node);
    if (lit !== undefined) {
      const line = sf.getLineAndCharacterOfPosition(node.getStart()).line;
      if ((isWords(lit) || gluedWords(node) || pushedWord(node, lit)) && !exempt(node) && !ignored(lines, line)) {
        out.push(`${rel}:${line + 1}: ${JSON.stringify(lit.slice(0, 60))}`);
      }
      if (/\ben-(GB|US)\b/.test(lit) && !ignored(lines, line)) out.push(`${rel}:${line + 1}: a fixed locale ${lit}`);
      if (ts.isTemplateExpression(node)) ts.forEachChild(node, visit);
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

describe('words the person reads go through l10n', () => {
  it('finds what it looks for (planted examples)', () => {
    const planted = [
      "const a = 'Sign in again';",
      'const b = `back ${when}`;',
      'const c = `${n} cards`;',
      "parts.push('blocking');",
      "const d = t('Back {0}.', when);",
      'const e = `opt-${i}`;',
      "parts.push(t('blocking'));",
    ].join('\n');
    assert.deepEqual(violationsIn('planted.ts', planted).map((v) => v.split(':')[1]), ['1', '2', '3', '4']);
  });

  it('src/editor and the webview hold no user-visible string outside l10n', () => {
    const found = violations();
    assert.deepEqual(found, [], `${found.length} strings bypass l10n:\n${found.join('\n')}`);
  });
});

describe('the pseudo-locale and dates in the display language', () => {
  it('scripts/l10n-pseudo.mjs wraps and accents every message, keeping {0}, $(icons), link targets and `code`', async () => {
    const { pseudo } = (await import(path.join(root, 'scripts', 'l10n-pseudo.mjs'))) as { pseudo(m: string): string };
    assert.equal(pseudo('{0} cards wait on you'), '⟦{0} çáŕďš ŵáíţ óñ ýóú⟧');
    assert.equal(pseudo('$(bell-slash) Cards: sign in'), '⟦$(bell-slash) Çáŕďš: šíĝñ íñ⟧');
    assert.equal(pseudo('Set `assistantCards.notify`.\n[Sign In](command:assistantCards.signIn)'), '⟦Šéţ `assistantCards.notify`.⟧\n[⟦Šíĝñ Íñ⟧](command:assistantCards.signIn)');
    assert.doesNotMatch(pseudo('Answered from {0} on {1}.'), /[A-Za-z]{2,}/, 'no plain English left');
  });

  it('a history line: its time in VS Code\'s display language (not the runtime\'s), its step and who in words', () => {
    try {
      l10n.setLocale('de');
      const line = historyLine({ at: '2026-11-22T09:30:00Z', type: 'later', by: 'person', detail: '2026-11-22T17:00:00.000Z' }, 'UTC');
      assert.match(line.at, /^22\.11\.2026, 09:30:00$/);
      assert.match(line.detail, /^until 22\.11\.2026, 17:00:00$/);
      assert.equal(line.what, 'put in Later');
      assert.equal(line.who, 'you');
      assert.equal(historyLine({ at: '2026-11-22T09:30:00Z', type: 'rerouted', by: 'robot' }, 'UTC').what, 'rerouted', 'a step we do not know: the service\'s word');
    } finally {
      l10n.setLocale(undefined);
    }
  });
});

describe('the l10n bundle and the shared words', () => {
  it('l10n/bundle.l10n.json holds every message in the sources (node scripts/l10n-bundle.mjs writes it)', async () => {
    const { extract, BUNDLE } = (await import(path.join(root, 'scripts', 'l10n-bundle.mjs'))) as { extract(): string; BUNDLE: string };
    assert.equal(fs.readFileSync(BUNDLE, 'utf8'), extract(), 'the bundle is stale: run node scripts/l10n-bundle.mjs');
  });

  it('the webview\'s words: the host\'s bundle translates, English when a message is missing; {0} filled', () => {
    const tr = l10n.bundleTranslator({ 'Back {0}.': 'Zurück {0}.' });
    assert.equal(tr('Back {0}.', 'morgen'), 'Zurück morgen.');
    assert.equal(tr('Got it'), 'Got it');
    assert.equal(l10n.bundleTranslator(undefined)('seen {0} times', 3), 'seen 3 times');
  });

  it('dates and "how long ago" follow the display language (Intl), not a fixed en-GB', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    try {
      l10n.setLocale('de');
      assert.equal(ago('2026-11-22T11:55:00Z', now), 'vor 5 Minuten');
      assert.equal(ago('2026-11-21T12:00:00Z', now), 'gestern');
      assert.match(dateTime('2026-11-22T09:30:00Z', 'UTC'), /22\.11\.2026.*09:30/);
      l10n.setLocale('en');
      assert.equal(ago('2026-11-22T11:55:00Z', now), '5 minutes ago');
    } finally {
      l10n.setLocale(undefined);
    }
  });
});
