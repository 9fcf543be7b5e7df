// Writes l10n/bundle.l10n.json: every message of `vscode.l10n.t(...)` in src/editor, of the
// shared `t(...)` (src/shared, media/webview) and of the bridge's BRIDGE_WORDS, English to English. It is the file a
// translator copies to bundle.l10n.<language>.json. `npm test` checks it is current
// (test/scripts/l10n.test.ts). Usage: node scripts/l10n-bundle.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BUNDLE = path.join(root, 'l10n', 'bundle.l10n.json');

function files(dir, out = []) {
  for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) files(rel, out);
    else if (e.name.endsWith('.ts')) out.push(rel);
  }
  return out;
}

/** The messages, sorted, as the bundle's JSON text. */
export function extract() {
  const messages = new Set();
  for (const rel of ['src/editor', 'src/shared', 'media/webview'].flatMap((d) => files(d))) {
    const sf = ts.createSourceFile(rel, fs.readFileSync(path.join(root, rel), 'utf8'), ts.ScriptTarget.ES2022, true);
    const visit = (node) => {
      if (ts.isCallExpression(node)) {
        const e = node.expression;
        const name = ts.isIdentifier(e) ? e.text : ts.isPropertyAccessExpression(e) ? `${e.expression.getText(sf)}.${e.name.text}` : '';
        const first = node.arguments[0];
        if ((name === 't' || name.endsWith('l10n.t')) && first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) messages.add(first.text);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  // The bridge's words (src/bridge/words-list.ts BRIDGE_WORDS): the extension writes their translations for the hook (#54).
  const words = ts.createSourceFile('words.ts', fs.readFileSync(path.join(root, 'src/bridge/words-list.ts'), 'utf8'), ts.ScriptTarget.ES2022, true);
  const findWords = (node) => {
    if (ts.isVariableDeclaration(node) && node.name.getText(words) === 'BRIDGE_WORDS') {
      let init = node.initializer;
      while (init && ts.isAsExpression(init)) init = init.expression;
      for (const p of init.properties) {
        if (!ts.isPropertyAssignment(p) || !ts.isStringLiteral(p.initializer)) throw new Error(`src/bridge/words-list.ts: ${p.getText(words)} is not a plain string`);
        messages.add(p.initializer.text);
      }
    }
    ts.forEachChild(node, findWords);
  };
  findWords(words);
  const sorted = [...messages].sort();
  return `${JSON.stringify(Object.fromEntries(sorted.map((m) => [m, m])), null, 2)}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  fs.mkdirSync(path.dirname(BUNDLE), { recursive: true });
  fs.writeFileSync(BUNDLE, extract());
  console.log(`wrote ${path.relative(root, BUNDLE)}`);
}
