// No module-level state in src/editor, src/shared, src/api and src/auth (#27, #39): what lives as long as the extension is
// owned by an object activation makes (App, the context keys, the panel manager), so a second
// activation, a test or a fresh load never meets what an earlier one left behind. This reads each
// file's top level with the TypeScript parser and names every `let`/`var`, every object made with
// `new` (a Map, a Set, a singleton), every empty `[]`/`{}` kept to fill later, every IIFE and every
// static field that is not readonly. The few that stay are listed below with their reason
// (docs/decisions.md, "One idiom per job (#27): state and load time").
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

const root = path.resolve(__dirname, '..', '..');
const FOLDERS = ['src/editor', 'src/shared', 'src/api', 'src/auth'];

/** file -> names allowed to stay, and why. */
const ALLOWED: Record<string, Record<string, string>> = {
  'src/editor/extension.ts': {
    shutdown: 'VS Code calls deactivate() with nothing: the module is the only place its handle can be',
  },
  'src/shared/l10n.ts': {
    translate: "the words of the runtime it runs in (the extension host's vscode.l10n.t, or the webview's bundle), set once at its start",
    locale: "the display language of that runtime, set with the translator",
    relative: 'the relative-time formatter of that language, made again when the language changes',
  },
  'src/api/http.ts': {
    undiciLean: 'the module undici loaded at the first request: a require cache, the same module for every caller',
    BEFORE_SENDING: 'a constant set of error codes, never changed',
  },
  'src/auth/jose.ts': {
    loading: 'the one dynamic import of jose (an ES module): an import cache, the same module for every caller',
  },
  'src/editor/answers/answer-words.ts': {
    formats: 'a memo of Intl formatters by language and zone: the same words with or without it',
  },
};

export interface ModuleState { name: string; line: number; what: string }

const MUTABLE_NEW = (e: ts.Expression): boolean => ts.isNewExpression(e);
const EMPTY_LITERAL = (e: ts.Expression): boolean =>
  (ts.isArrayLiteralExpression(e) && e.elements.length === 0) || (ts.isObjectLiteralExpression(e) && e.properties.length === 0);
const IIFE = (e: ts.Expression): boolean => {
  if (!ts.isCallExpression(e)) return false;
  let callee: ts.Expression = e.expression;
  while (ts.isParenthesizedExpression(callee)) callee = callee.expression;
  return ts.isArrowFunction(callee) || ts.isFunctionExpression(callee);
};

/** The module-level state declared at the top level of `source`. */
export function moduleState(fileName: string, source: string): ModuleState[] {
  const sf = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: ModuleState[] = [];
  const at = (n: ts.Node) => sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
  for (const st of sf.statements) {
    if (ts.isVariableStatement(st)) {
      const flags = st.declarationList.flags;
      const isConst = (flags & ts.NodeFlags.Const) !== 0;
      for (const d of st.declarationList.declarations) {
        const name = d.name.getText(sf);
        let init = d.initializer;
        while (init && (ts.isAsExpression(init) || ts.isSatisfiesExpression(init) || ts.isParenthesizedExpression(init))) init = init.expression;
        if (!isConst) found.push({ name, line: at(d), what: (flags & ts.NodeFlags.Let) ? 'let' : 'var' });
        else if (init && MUTABLE_NEW(init)) found.push({ name, line: at(d), what: 'an object made with new' });
        else if (init && EMPTY_LITERAL(init)) found.push({ name, line: at(d), what: 'an empty [] or {} to fill later' });
        else if (init && IIFE(init)) found.push({ name, line: at(d), what: 'a value made by a function run at load' });
      }
    } else if (ts.isClassDeclaration(st)) {
      for (const m of st.members) {
        if (!ts.isPropertyDeclaration(m)) continue;
        const mods = ts.getModifiers(m) ?? [];
        const isStatic = mods.some((x) => x.kind === ts.SyntaxKind.StaticKeyword);
        const isReadonly = mods.some((x) => x.kind === ts.SyntaxKind.ReadonlyKeyword);
        if (isStatic && !isReadonly) found.push({ name: `${st.name?.text ?? 'class'}.${m.name.getText(sf)}`, line: at(m), what: 'a static field' });
      }
    }
  }
  return found;
}

function tsFiles(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) tsFiles(p, out); else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

describe('no module-level state in src/editor, src/shared, src/api and src/auth', () => {
  it('finds what it looks for (planted examples)', () => {
    const planted = [
      'let current: string | undefined;',
      'const cache = new Map<string, number>();',
      'export const panels = new Set();',
      'const queue: string[] = [];',
      'const seen = {} as Record<string, boolean>;',
      'const table = (() => { const m = new Map(); return m; })();',
      'export class Registry { static instance: Registry | undefined; static readonly id = 1; }',
      'var legacy = 1;',
    ].join('\n');
    assert.deepEqual(moduleState('planted.ts', planted).map((s) => s.name), [
      'current', 'cache', 'panels', 'queue', 'seen', 'table', 'Registry.instance', 'legacy',
    ]);
    const fine = [
      "export const CONTEXT = { state: 'assistantCards.state' } as const;",
      "const COLORS: Record<string, string> = { red: 'charts.red' };",
      'export const isSignedIn = (s: { kind: string }): boolean => s.kind === "online";',
      'function f() { let x = new Map(); return x; }',
      'export class A { private readonly m = new Map(); static readonly B = 1; }',
    ].join('\n');
    assert.deepEqual(moduleState('fine.ts', fine), []);
  });

  it('holds none but the few named with their reason', () => {
    const unexpected: string[] = [];
    const allowedSeen = new Set<string>();
    for (const folder of FOLDERS) {
      for (const file of tsFiles(path.join(root, folder))) {
        const rel = path.relative(root, file).split(path.sep).join('/');
        for (const s of moduleState(rel, fs.readFileSync(file, 'utf8'))) {
          if (ALLOWED[rel]?.[s.name]) allowedSeen.add(`${rel}:${s.name}`);
          else unexpected.push(`${rel}:${s.line} ${s.name} (${s.what})`);
        }
      }
    }
    assert.deepEqual(unexpected, [], 'module-level state: make it a field of an object activation owns, or name it in ALLOWED with its reason');
    // An exception no longer needed leaves the list.
    const stale = Object.entries(ALLOWED).flatMap(([f, names]) => Object.keys(names).map((n) => `${f}:${n}`)).filter((k) => !allowedSeen.has(k));
    assert.deepEqual(stale, [], 'ALLOWED names state that is gone');
  });
});
