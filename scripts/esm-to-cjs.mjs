// One file of esbuild's split ES module output (esbuild.mjs, the extension's build) rewritten as
// CommonJS, for VS Code loads an extension's main with require(). Only the module syntax changes:
//   import{a as b}from"./chunk-X.js"  ->  var{a:b}=require("./chunk-X.js")   (all hoisted to the top, in order, as ES modules run them)
//   import*as p from"node:path"       ->  var p=require("node:path")
//   import("./live-core-X.js")        ->  __imp_("./live-core-X.js")          (a require on the first call, still a promise)
//   export{c as a}                    ->  module.exports={a:c}
// esbuild's own CommonJS output of the same file (what this replaces) added its runtime helpers to
// every file, read each imported name through its module object (`(0,i.a)(…)`) and copied every
// property of each `node:` module once per import: about 0.6 KB a file and 6 bytes a call.
//
// An imported name is a copy, not a live binding: right while no exported binding is assigned after
// its file has run. esbuild's chunks never import each other in a circle, so a file has run whole
// before any other reads its names; `exportsAssignedLater` finds the sources that could assign an
// exported binding later, and esbuild.mjs refuses to build them.
//
// The statements are found by parsing the file (acorn), and checked against esbuild's metafile: the
// same modules imported in the same order, the exports it lists. Anything else fails the build
// with the file's name instead of shipping a guess.
import fs from 'node:fs';
import { parse } from 'acorn';
import { shiftSourceMap } from './source-map-shift.mjs';

/** Six characters, as `import`: a dynamic import's columns stay where the source map has them. */
const DYNAMIC_HELPER = '__imp_';

/**
 * @param {string} code  the ES module file as esbuild wrote it
 * @param {object | undefined} map  its source map (v3), if any
 * @param {{ file: string, imports: { path: string, kind: string }[], exports: string[], own: (path: string) => string | undefined }} meta
 *   the file's entry in esbuild's metafile; `own(path)` is the `./name.js` of a file of this build, or undefined for a module outside it
 * @returns {{ code: string, map: object | undefined }}
 */
export function esmToCommonJs(code, map, meta) {
  const fail = (why) => { throw new Error(`esbuild.mjs (ES module to CommonJS): ${meta.file}: ${why}`); };
  const edits = [];
  /** The hoisted requires: declarators (`x=require(…)`), or a bare `require(…)` for an import of nothing. */
  const requires = [];
  /** A module outside the build required whole once: later imports of it name that first variable. */
  const whole = new Map();
  const requireWhole = (local, spec, from) => {
    requires.push(`${local}=${whole.get(spec) ?? from}`);
    if (!whole.has(spec)) whole.set(spec, local);
  };
  /** The modules `found` names are those the metafile lists for that kind of import (as many of each). */
  const sameModules = (what, found, kind) => {
    const listed = meta.imports.filter((i) => i.kind === kind).map((i) => meta.own(i.path) ?? i.path).sort();
    if (found.slice().sort().join('\n') !== listed.join('\n')) fail(`${what} of ${found.join(', ') || 'nothing'}; the metafile lists ${listed.join(', ') || 'none'}`);
  };

  const ast = parse(code, { ecmaVersion: 'latest', sourceType: 'module' });
  const body = ast.body;
  if (body.some((n) => n.type === 'ExportDefaultDeclaration' || n.type === 'ExportAllDeclaration' || (n.type === 'ExportNamedDeclaration' && (n.declaration || n.source)))) fail('an export form other than export{…}');

  // Static imports, in the order ES modules run them (before the file's own code).
  const found = body.filter((n) => n.type === 'ImportDeclaration');
  sameModules('import statements', found.map((n) => n.source.value), 'import-statement');
  const ownFiles = new Set(meta.imports.map((i) => meta.own(i.path)).filter(Boolean));
  found.forEach((node) => {
    const spec = node.source.value;
    const own = ownFiles.has(spec);
    const from = `require(${JSON.stringify(spec)})`;
    const named = [];
    for (const s of node.specifiers) {
      const local = s.local.name;
      if (s.type === 'ImportNamespaceSpecifier') requireWhole(local, spec, from);
      // A module outside the build (node:…) is its exports whole; a file of this build exports `default` by that name.
      else if (s.type === 'ImportDefaultSpecifier') {
        if (own) named.push(`default:${local}`);
        else requireWhole(local, spec, from);
      } else {
        const name = s.imported.type === 'Identifier' ? s.imported.name : JSON.stringify(s.imported.value);
        named.push(name === local ? local : `${name}:${local}`);
      }
    }
    if (named.length) requires.push(`{${named.join(',')}}=${from}`);
    if (!node.specifiers.length) requires.push({ bare: `${from};` });
    // The statement's place keeps its line breaks, so later lines keep their numbers.
    edits.push({ start: node.start, end: node.end, text: '\n'.repeat(code.slice(node.start, node.end).split('\n').length - 1) });
  });

  // Dynamic imports: the keyword becomes the helper's name, the same length.
  const dynamic = [];
  const FUNCTION = /^(FunctionDeclaration|FunctionExpression|ArrowFunctionExpression)$/;
  const walk = (node, inFunction) => {
    if (!node || typeof node.type !== 'string') return;
    if (node.type === 'ImportExpression') dynamic.push(node);
    if (node.type === 'MetaProperty' && node.meta.name === 'import') fail('import.meta has no CommonJS form here');
    if (!inFunction && (node.type === 'AwaitExpression' || (node.type === 'ForOfStatement' && node.await))) fail('a top-level await has no CommonJS form');
    const inner = inFunction || FUNCTION.test(node.type);
    for (const key of Object.keys(node)) {
      const v = node[key];
      if (Array.isArray(v)) v.forEach((x) => walk(x, inner));
      else if (v && typeof v === 'object' && typeof v.type === 'string') walk(v, inner);
    }
  };
  walk(ast, false);
  dynamic.sort((a, b) => a.start - b.start);
  sameModules('dynamic imports', dynamic.map((n) => (n.source.type === 'Literal' ? n.source.value : '(not a string)')), 'dynamic-import');
  dynamic.forEach((node, n) => {
    if (code.slice(node.start, node.start + 6) !== 'import') fail(`dynamic import ${n + 1} does not start with its keyword`);
    edits.push({ start: node.start, end: node.start + 6, text: DYNAMIC_HELPER });
  });
  if (dynamic.length && new RegExp(`(?<![\\w$])${DYNAMIC_HELPER}(?![\\w$])`).test(code)) fail(`the name ${DYNAMIC_HELPER} is already used`);

  // The export clause.
  const clauses = body.filter((n) => n.type === 'ExportNamedDeclaration');
  if (clauses.length > 1) fail(`${clauses.length} export clauses`);
  const exported = [];
  for (const node of clauses) {
    const pairs = node.specifiers.map((s) => {
      const local = s.local.name;
      const name = s.exported.type === 'Identifier' ? s.exported.name : s.exported.value;
      exported.push(name);
      const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
      return key === local ? local : `${key}:${local}`;
    });
    const lines = code.slice(node.start, node.end).split('\n').length - 1;
    edits.push({ start: node.start, end: node.end, text: `module.exports={${pairs.join(',')}};${'\n'.repeat(lines)}` });
  }
  if ([...exported].sort().join() !== [...meta.exports].sort().join()) fail(`exports ${exported.join(', ')}, the metafile lists ${meta.exports.join(', ')}`);

  const helper = dynamic.length ? `var ${DYNAMIC_HELPER}=s=>Promise.resolve().then(()=>require(s));` : '';
  // ES modules are strict; a CommonJS file is strict only when it says so.
  // One `var` for each run of declarators; a bare require between them keeps its place.
  const hoisted = requires.reduce((text, r, i) => {
    if (typeof r === 'object') return `${text}${i && typeof requires[i - 1] === 'string' ? ';' : ''}${r.bare}`;
    return `${text}${i && typeof requires[i - 1] === 'string' ? ',' : 'var '}${r}`;
  }, '') + (typeof requires.at(-1) === 'string' ? ';' : '');
  edits.push({ start: 0, end: 0, text: `"use strict";${helper}${hoisted}` });
  edits.sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 1; i < edits.length; i++) if (edits[i].start < edits[i - 1].end) fail('two rewrites overlap');

  let out = '';
  let at = 0;
  for (const e of edits) { out += code.slice(at, e.start) + e.text; at = e.end; }
  out += code.slice(at);
  return { code: out, map: map && shiftSourceMap(map, code, edits) };
}

/** Exports that are assigned only while their module runs, by file (a path's end). */
const ASSIGNED_WHILE_RUNNING = [
  // TypeScript enums (`export var ScanError; (function (ScanError) {…})(ScanError || (ScanError = {}))`).
  ['node_modules/jsonc-parser/lib/esm/main.js', ['ScanError', 'SyntaxKind', 'ParseErrorCode']],
];

/**
 * The source files (of a build's metafile inputs) that export a `let` or `var` (`export let x`, or
 * `let x` named in an `export { }`), which a function could assign after the module has run, each
 * as "file (names)". `read` reads a file (tests plant their own).
 * @param {string[]} files
 * @param {(file: string) => string} [read]
 * @returns {string[]}
 */
export function exportsAssignedLater(files, read = (f) => fs.readFileSync(f, 'utf8')) {
  const found = [];
  for (const file of files) {
    if (!/\.[cm]?[jt]s$/.test(file) || /^[\w-]+:/.test(file)) continue;
    const text = read(file);
    const allowed = ASSIGNED_WHILE_RUNNING.find(([end]) => file.split('\\').join('/').endsWith(end))?.[1] ?? [];
    const names = [...text.matchAll(/^\s*export\s+(?:let|var)\s+([\w$]+)/gm)].map((m) => m[1]);
    for (const m of text.matchAll(/^\s*export\s*\{([^}]*)\}(?!\s*from)/gm)) {
      const list = m[1].replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      for (const name of list.split(',').map((x) => x.trim().split(/\s+as\s+/)[0]).filter((x) => /^[\w$]+$/.test(x))) {
        if (new RegExp(`^\\s*(?:let|var)\\s+${name.replaceAll('$', '\\$')}\\b`, 'm').test(text)) names.push(name);
      }
    }
    const refused = names.filter((n) => !allowed.includes(n));
    if (refused.length) found.push(`${file} (${refused.join(', ')})`);
  }
  return found;
}
