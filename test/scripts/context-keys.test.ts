// Every context key the extension sets (src/editor/context-keys.ts, the only place that calls
// setContext) is read by some `when` in package.json, and every `assistantCards.*` key a `when`
// reads is set: a key nobody reads is dead code, a key nobody sets is a menu that never shows.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const editorDir = path.join(root, 'src', 'editor');

function tsFiles(dir: string, out: string[] = []): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) tsFiles(p, out); else if (e.name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** The values of the CONTEXT object in context-keys.ts. */
function keysSet(): string[] {
  const src = fs.readFileSync(path.join(editorDir, 'context-keys.ts'), 'utf8');
  const body = /export const CONTEXT = \{([\s\S]*?)\} as const;/.exec(src)?.[1] ?? '';
  return [...body.matchAll(/^\s*\w+:\s*'([^']+)'/gm)].map((m) => m[1] ?? '').sort();
}

/** Every `when` (menus, keybindings, welcome views) and walkthrough `onContext:` in the manifest. */
function whenClauses(): string[] {
  const out: string[] = [];
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) { v.forEach(visit); return; }
    if (!v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (k === 'when' && typeof x === 'string') out.push(x);
      else if (k === 'completionEvents' && Array.isArray(x)) out.push(...x.filter((e): e is string => typeof e === 'string' && e.startsWith('onContext:')).map((e) => e.slice('onContext:'.length)));
      else visit(x);
    }
  };
  visit((JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { contributes: unknown }).contributes);
  return out;
}

/** The `assistantCards.*` keys a clause reads: not the values compared against (`view == assistantCards.cards`), not `config.*`. */
function keysRead(clauses: string[]): string[] {
  const keys = new Set<string>();
  for (const c of clauses) {
    const withoutValues = c.replace(/(==|!=|=~|<=|>=|<|>)\s*[^\s&|)]+/g, ' ');
    for (const m of withoutValues.matchAll(/(?<![\w.])assistantCards\.\w+/g)) keys.add(m[0]);
  }
  return [...keys].sort();
}

describe('context keys', () => {
  it('are set only through context-keys.ts', () => {
    const raw = tsFiles(editorDir).filter((f) => !f.endsWith('context-keys.ts'))
      .filter((f) => /executeCommand\(\s*'setContext'/.test(fs.readFileSync(f, 'utf8')));
    assert.deepEqual(raw.map((f) => path.relative(root, f)), []);
  });

  it('every key set is read by a `when`, and every key read is set', () => {
    const set = keysSet();
    const read = keysRead(whenClauses());
    assert.ok(set.length > 0 && read.length > 0);
    assert.deepEqual(set.filter((k) => !read.includes(k)), [], 'set but read by no when clause');
    assert.deepEqual(read.filter((k) => !set.includes(k)), [], 'read by a when clause but never set');
  });
});
