// @ts-check
// The layer map, held whole, the way VS Code's `code-layering` lint holds its own: every layer
// lists what it may import (other layers, single modules of them, packages), and an import of
// anything else fails. Type-only imports may reach further (a type leaves nothing in a bundle), as
// each layer's `types` says. docs/architecture.md "The layers" explains each line.
import path from 'node:path';

/**
 * A layer's own files may always import one another. `values`/`types`: layers (`api`) or single
 * modules (`api/schemas`, `sync/index`) it may import; `packages`: npm packages and `node:` modules
 * (`node:*` for every one).
 * @type {Record<string, { values: string[]; types?: string[]; packages: string[] }>}
 */
export const LAYERS = {
  // The wire: schemas, the HTTP client. Imports no other layer.
  api: { values: [], packages: ['zod', 'undici', 'node:*'] },
  // Keys, proofs, the device flow, the token set: on the wire only.
  auth: { values: ['api'], packages: ['jose', 'zod', 'node:*'] },
  // The client core: the card model, the feed, the press. No editor, no webview.
  sync: { values: ['auth', 'api'], packages: ['node:*'] },
  // What the host and the webview both run: no vscode, no Node, no core (a value import of the
  // core would pull it into the webview's bundle); the wire's and the core's contract's types only.
  shared: { values: ['api/constants'], types: ['api/schemas', 'sync/contract', 'sync/index'], packages: ['zod'] },
  // The webview: its own files and the shared ones. Not even the wire's types: it gets the card as
  // the panel shows it (shared/panel-card.ts), so a change of the wire never reaches it.
  media: { values: ['shared'], packages: ['lit-html'] },
  // The only layer with vscode: the core through its index or its contract, the shared code, the
  // few wire modules the editor itself sets up (its HTTP runtime and certificates), the bridge's
  // settings and installer (Connect), and the list of the bridge's words it translates (#54).
  editor: {
    values: ['sync/index', 'sync/contract', 'shared', 'api/http', 'api/runtime', 'api/system-certificates', 'bridge/connect-settings', 'bridge/home', 'bridge/install', 'bridge/write-whole', 'bridge/words-list', 'bridge/process-alive', 'bridge/service-proof', 'bridge/service-state', 'bridge/service-files'],
    types: ['api/schemas'],
    packages: ['vscode', 'node:*'],
  },
  // The local service: the wire's schemas and constants, the asking surface's schemas (it checks
  // /_ask bodies with them), the shared rules, where the bridge looks for it and how it proves itself.
  sandbox: { values: ['api/schemas', 'api/ask-schemas', 'api/constants', 'shared', 'bridge/home', 'bridge/write-whole', 'bridge/process-alive', 'bridge/service-proof', 'bridge/service-state', 'bridge/service-files'], packages: ['fastify', 'zod', 'node-sqlite3-wasm', 'node:*'] },
  // The assistants' side: the wire's constants, and the asking surface's and the wire's types only
  // (never their zod values: a hook process loads no zod).
  bridge: { values: ['api/constants', 'api/proc-stat'], types: ['api/schemas', 'api/ask-schemas'], packages: ['jsonc-parser', 'node:*'] },
};

/**
 * The layer and module of a repository file (`src/api/schemas.ts` -> api, api/schemas), or
 * undefined outside src/ and media/. A file under src/ that no layer holds (a new folder, a file
 * beside the folders) has `layer` undefined: the rule refuses its imports until the map says
 * what it may import.
 */
export function whereIs(file, root = process.cwd()) {
  const rel = path.relative(root, file).split(path.sep).join('/').replace(/\.(ts|mts|js|mjs)$/, '');
  const m = /^src\/(.*)$/.exec(rel);
  if (m) {
    const [first, ...inner] = m[1].split('/');
    return first in LAYERS && inner.length ? { layer: first, module: `${first}/${inner.join('/')}` } : first in LAYERS ? { layer: first, module: `${first}/index` } : { layer: undefined, module: m[1] };
  }
  if (/^media(?:\/|$)/.test(rel)) return { layer: 'media', module: `media/${rel.slice('media/'.length) || 'index'}` };
  return undefined;
}

const packageOf = (spec) => (spec.startsWith('node:') ? spec : spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);

/** Why `spec` may not be imported from `file` (undefined: it may). */
export function refusal(file, spec, typeOnly, root = process.cwd()) {
  const from = whereIs(file, root);
  if (!from) return undefined;
  if (from.layer === undefined) return `'src/${from.module}' is in no layer of the map (eslint-rules/layers.mjs): add its folder to LAYERS, with what it may import.`;
  const rules = LAYERS[from.layer];
  if (!spec.startsWith('.')) {
    const pkg = packageOf(spec);
    const ok = rules.packages.includes(pkg) || (pkg.startsWith('node:') && rules.packages.includes('node:*'));
    return ok ? undefined : `src layer '${from.layer}' may not import the package '${pkg}' (its packages: ${rules.packages.join(', ')}).`;
  }
  const to = whereIs(path.resolve(path.dirname(file), spec), root);
  if (!to || to.layer === from.layer) return undefined;
  const allowed = typeOnly ? [...rules.values, ...(rules.types ?? [])] : rules.values;
  if (allowed.includes(to.layer) || allowed.includes(to.module)) return undefined;
  const typesToo = !typeOnly && (rules.types ?? []).some((x) => x === to.layer || x === to.module);
  return `layer '${from.layer}' may not import ${typesToo ? 'values of ' : ''}'${to.module}'` +
    ` (it may import: ${[...rules.values, ...(rules.types ?? []).map((t) => `types of ${t}`)].join(', ') || 'nothing of another layer'}).`;
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: { type: 'problem', docs: { description: 'Each layer imports only what the layer map lets it.' }, schema: [] },
  create(context) {
    const file = context.filename;
    const check = (node, source, typeOnly) => {
      if (!source || source.type !== 'Literal' || typeof source.value !== 'string') return;
      const why = refusal(file, source.value, typeOnly);
      if (why) context.report({ node, message: why });
    };
    const allTypes = (node) => node.importKind === 'type' || node.exportKind === 'type' ||
      (node.specifiers?.length > 0 && node.specifiers.every((s) => s.importKind === 'type' || s.exportKind === 'type'));
    return {
      ImportDeclaration: (node) => check(node, node.source, allTypes(node)),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source, allTypes(node)),
      ExportAllDeclaration: (node) => check(node, node.source, node.exportKind === 'type'),
      ImportExpression: (node) => check(node, node.source, false),
      CallExpression: (node) => {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require' && node.arguments[0]) check(node, node.arguments[0], false);
      },
    };
  },
};

export default { rules: { 'allowed-imports': rule } };
