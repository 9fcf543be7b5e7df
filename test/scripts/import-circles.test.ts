// No import circle anywhere in the sources (type imports count: a circle of types is still two
// files that must change together), and the core's contract imports none of the files that
// implement it (#39). The imports are read with TypeScript's own parser, as the layer map's are
// by ESLint; the detector is shown to find a planted circle first, so an empty answer means
// something.
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const root = path.resolve(__dirname, '..', '..');
const SOURCES = ['src', 'media/webview'];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.ts$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** The relative imports of a file (static, dynamic, re-exports, type-only alike), resolved to files. */
function importsOf(file: string, text = fs.readFileSync(file, 'utf8')): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const specs: string[] = [];
  const visit = (n: ts.Node): void => {
    if ((ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) && n.moduleSpecifier && ts.isStringLiteral(n.moduleSpecifier)) specs.push(n.moduleSpecifier.text);
    else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword && n.arguments[0] && ts.isStringLiteral(n.arguments[0])) specs.push(n.arguments[0].text);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return specs.filter((s) => s.startsWith('.')).map((s) => resolve(path.dirname(file), s)).filter((f): f is string => f !== undefined);
}

function resolve(from: string, spec: string): string | undefined {
  const base = path.resolve(from, spec);
  return [`${base}.ts`, path.join(base, 'index.ts'), base].find((f) => fs.existsSync(f) && fs.statSync(f).isFile());
}

/** The circles of a graph: its strongly connected parts of two or more files, or one file importing itself. */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const strong = (v: string): void => {
    index.set(v, next); low.set(v, next); next++;
    stack.push(v); onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) { strong(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const part: string[] = [];
      let w: string;
      do { w = stack.pop()!; onStack.delete(w); part.push(w); } while (w !== v);
      if (part.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(part.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) strong(v);
  return found;
}

describe('no import circle in the sources', () => {
  const files = SOURCES.flatMap((d) => sourceFiles(path.join(root, d)));
  const graph = new Map(files.map((f) => [f, importsOf(f)]));
  const rel = (f: string) => path.relative(root, f);

  it('the detector finds a planted circle, and none in a line; the parser sees every kind of import', () => {
    assert.deepEqual(circles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]])), [['a', 'b', 'c']]);
    assert.deepEqual(circles(new Map([['a', ['a']]])), [['a']]);
    assert.deepEqual(circles(new Map([['a', ['b']], ['b', ['c']], ['c', []]])), []);
    const kinds = importsOf(path.join(root, 'src/shared/planted.ts'), "import type { X } from './format';\nexport { y } from './plain-text';\nconst z = () => import('./proposal');\n");
    assert.deepEqual(kinds.map(rel), ['src/shared/format.ts', 'src/shared/plain-text.ts', 'src/shared/proposal.ts']);
  });

  it('none among the files of src and media/webview', () => {
    assert.ok(files.length > 100, `${files.length} files read`);
    assert.deepEqual(circles(graph).map((c) => c.map(rel)), []);
  });

  it('the core\'s contract imports none of the files that implement it', () => {
    const contract = path.join(root, 'src/sync/contract.ts');
    // A file implements the contract when it imports it and is imported by it: whatever the
    // contract imports must not import the contract back, directly or through others.
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
      from === to || (!seen.has(from) && (seen.add(from), (graph.get(from) ?? []).some((n) => reaches(n, to, seen))));
    const back = (graph.get(contract) ?? []).filter((f) => reaches(f, contract));
    assert.deepEqual(back.map(rel), []);
  });
});
