// The client's sources as the TypeScript compiler sees them, for rules about who calls what:
// references are found by symbol (not by text), so a rename, a moved method or a new file keeps
// being checked, and a call through another name or another file is still found.
import * as path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../..');
const SRC = path.join(ROOT, 'src');

export interface Reference {
  /** Path under src/, with forward slashes. */
  file: string;
  line: number;
  node: ts.Node;
  /** The named function or method holding the reference: `Class.method`, `function`, or `<file>` at top level. */
  container: string;
}

export class SourceGraph {
  readonly program: ts.Program;
  readonly checker: ts.TypeChecker;

  constructor() {
    const configFile = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), (f) => ts.sys.readFile(f));
    const config = ts.parseJsonConfigFileContent(configFile.config, ts.sys, ROOT);
    const rootNames = config.fileNames.filter((f) => path.resolve(f).startsWith(SRC + path.sep));
    this.program = ts.createProgram({ rootNames, options: { ...config.options, noEmit: true } });
    this.checker = this.program.getTypeChecker();
  }

  /** The client's own files (src/, without the sandbox: it is the service, not the client). */
  clientFiles(): ts.SourceFile[] {
    return this.program.getSourceFiles().filter((f) => {
      const p = path.resolve(f.fileName);
      return p.startsWith(SRC + path.sep) && !p.startsWith(path.join(SRC, 'sandbox') + path.sep);
    });
  }

  file(rel: string): ts.SourceFile {
    const f = this.program.getSourceFile(path.join(SRC, rel));
    if (!f) throw new Error(`no source file src/${rel}`);
    return f;
  }

  /** A class (or interface) member's symbol, e.g. member('api/client.ts', 'ApiClient', 'answer'). */
  member(rel: string, owner: string, name: string): ts.Symbol {
    const decl = this.declaration(rel, owner);
    const sym = this.checker.getSymbolAtLocation(decl.name!);
    const m = sym?.members?.get(ts.escapeLeadingUnderscores(name)) ?? sym?.exports?.get(ts.escapeLeadingUnderscores(name));
    if (!m) throw new Error(`${owner}.${name} not found in src/${rel}`);
    return m;
  }

  /** A top-level function or class's symbol. */
  topLevel(rel: string, name: string): ts.Symbol {
    const decl = this.declaration(rel, name);
    const sym = this.checker.getSymbolAtLocation(decl.name!);
    if (!sym) throw new Error(`${name} has no symbol`);
    return sym;
  }

  /** Members of a class whose body calls `this.<callee>(...)`. */
  methodsCalling(rel: string, owner: string, callee: string): string[] {
    const decl = this.declaration(rel, owner) as ts.ClassDeclaration;
    const out: string[] = [];
    for (const m of decl.members) {
      if (!ts.isMethodDeclaration(m) || !m.body) continue;
      let calls = false;
      const visit = (n: ts.Node): void => {
        if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.expression.kind === ts.SyntaxKind.ThisKeyword && n.expression.name.text === callee) calls = true;
        ts.forEachChild(n, visit);
      };
      visit(m.body);
      if (calls) out.push(m.name.getText());
    }
    return out;
  }

  /** Every use of `target` in the client's files (its own declarations left out). */
  references(target: ts.Symbol): Reference[] {
    const own = new Set((target.declarations ?? []).map((d) => (d as ts.NamedDeclaration).name).filter((n): n is ts.DeclarationName => !!n));
    const out: Reference[] = [];
    for (const sf of this.clientFiles()) {
      const visit = (n: ts.Node): void => {
        if (!own.has(n as ts.DeclarationName) && this.refersTo(n, target)) {
          out.push({ file: relOf(sf), line: sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1, node: n, container: containerOf(n, sf) });
        }
        ts.forEachChild(n, visit);
      };
      visit(sf);
    }
    return out;
  }

  private refersTo(n: ts.Node, target: ts.Symbol): boolean {
    // `const { answer } = api`: the property taken out of the object.
    if (ts.isBindingElement(n) && ts.isObjectBindingPattern(n.parent)) {
      const name = n.propertyName ?? n.name;
      if (!ts.isIdentifier(name)) return false;
      return this.same(this.checker.getTypeAtLocation(n.parent).getProperty(name.text), target);
    }
    if (!ts.isIdentifier(n) && !ts.isPrivateIdentifier(n) && !(ts.isStringLiteralLike(n) && ts.isElementAccessExpression(n.parent))) return false;
    return this.same(this.checker.getSymbolAtLocation(n), target);
  }

  /** The same declaration (a member reached through a type can be another symbol object for it). */
  same(s: ts.Symbol | undefined, target: ts.Symbol): boolean {
    if (!s) return false;
    if (s.flags & ts.SymbolFlags.Alias) s = this.checker.getAliasedSymbol(s);
    if (s === target) return true;
    const decls = new Set(target.declarations ?? []);
    return (s.declarations ?? []).some((d) => decls.has(d));
  }

  private declaration(rel: string, name: string): ts.NamedDeclaration {
    const sf = this.file(rel);
    for (const st of sf.statements) {
      if ((ts.isClassDeclaration(st) || ts.isInterfaceDeclaration(st) || ts.isFunctionDeclaration(st)) && st.name?.text === name) return st;
    }
    throw new Error(`${name} not declared in src/${rel}`);
  }
}

function relOf(sf: ts.SourceFile): string {
  return path.relative(SRC, sf.fileName).split(path.sep).join('/');
}

/** The nearest named function or method around `n`. */
export function containerOf(n: ts.Node, sf = n.getSourceFile()): string {
  for (let p: ts.Node | undefined = n.parent; p; p = p.parent) {
    if ((ts.isMethodDeclaration(p) || ts.isGetAccessorDeclaration(p) || ts.isSetAccessorDeclaration(p) || ts.isPropertyDeclaration(p)) && p.name) {
      const cls = ts.isClassLike(p.parent) ? p.parent.name?.text ?? '<class>' : '<object>';
      return `${cls}.${p.name.getText(sf)}`;
    }
    if (ts.isConstructorDeclaration(p)) return `${ts.isClassLike(p.parent) ? p.parent.name?.text ?? '<class>' : '<class>'}.constructor`;
    if (ts.isFunctionDeclaration(p) && p.name) return p.name.text;
    if (ts.isVariableDeclaration(p) && ts.isIdentifier(p.name) && p.initializer && (ts.isArrowFunction(p.initializer) || ts.isFunctionExpression(p.initializer))) return p.name.text;
  }
  return '<top level>';
}

/** The nearest ancestor of `n` that passes `test`. */
export function ancestor<T extends ts.Node>(n: ts.Node, test: (p: ts.Node) => p is T): T | undefined {
  for (let p: ts.Node | undefined = n.parent; p; p = p.parent) if (test(p)) return p;
  return undefined;
}
