// Loads a build's dist/extension.js in plain Node and calls its activate(), as the extension host
// does at startup, with a stand-in for the `vscode` module (every property a callable no-op), and
// prints one JSON line: the load (every file extension.js requires at load) and activate() times.
// Whole-process timing of this script (e.g. `/usr/bin/time node bench/plain-load.mjs out/a/dist`)
// pairs two builds on a noisy machine; the bench's loadAndActivateMs in the real extension host
// is the figure that counts.
//   node bench/plain-load.mjs [DIST_DIR]   (default dist)
import Module, { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const requireCjs = createRequire(import.meta.url);

const dist = path.resolve(process.argv[2] ?? 'dist');
/** Anything: a no-op function whose properties, call and construction are anything again. */
const anything = () => new Proxy(function () {}, {
  get: (t, k) => (k === Symbol.toPrimitive ? () => '' : k === 'then' ? undefined : k in t ? t[k] : (t[k] = anything())),
  set: (t, k, v) => Reflect.defineProperty(t, k, { value: v, writable: true, configurable: true }),
  apply: () => anything(),
  construct: () => anything(),
});
const vscode = anything();
vscode.workspace.getConfiguration = () => ({ get: (_key, fallback) => fallback, inspect: () => undefined, has: () => false, update: async () => undefined });
Object.assign(vscode, { env: { language: 'en', appName: 'plain', uriScheme: 'vscode' }, ExtensionMode: { Production: 1, Development: 2, Test: 3 }, l10n: { t: (m) => String(m) } });
const load = Module._load;
Module._load = function (request, ...rest) { return request === 'vscode' ? vscode : load.call(this, request, ...rest); };

const before = new Set(Object.keys(requireCjs.cache));
const t0 = performance.now();
const ext = requireCjs(path.join(dist, 'extension.js'));
const t1 = performance.now();
const context = { subscriptions: [], extensionMode: 1, extensionUri: anything(), globalStorageUri: { fsPath: path.join(os.tmpdir(), 'plain-load') }, secrets: anything(), workspaceState: anything(), globalState: anything(), extension: { packageJSON: { version: '0' } }, extensionPath: dist };
ext.activate(context);
const t2 = performance.now();
const loaded = Object.keys(requireCjs.cache).filter((f) => !before.has(f)).map((f) => path.relative(dist, f));
console.log(JSON.stringify({ loadMs: t1 - t0, activateMs: t2 - t1, loadAndActivateMs: t2 - t0, loaded }));
process.exit(0);
