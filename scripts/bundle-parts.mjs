// The parts of a release build (esbuild.mjs's output folder), by when the extension loads them:
//   activation  dist/extension.js and the chunks it requires at load (what the extension host loads
//               before activate() runs: the bench's loadAndActivateMs)
//   liveSet     live-core-*.js (and the chunks only it requires): the client core and the live set,
//               loaded by the first live set
//   connect     connect-settings-*.js: the CLI settings' planner (jsonc-parser), at the first Connect
//               or Disconnect; bridge-words-file-*.js: the bridge's words file, written with it (#54)
//   localService local-service-flows-*.js: the person's local service (its look every 5 s, Start,
//               Stop, the sign-in dialog), loaded just after activation (#51)
//   palette     palette-picks-*.js: the palette's picks, the Answers' search and export, loaded by
//               the first command that needs one (the bundle's goals)
//   late        net-undici.js, net-jose.js: at the first request
//   webview, bridge, sandbox: the card panel's page, the assistants' hook, the local sandbox
// Used by test/scripts/bundle-budget.test.ts and scripts/bench.mjs.
/** The parts that are the extension's own code (the rest: undici and jose, the webview's page, the bridge, the sandbox). */
export const EXTENSION_PARTS = ['activation', 'liveSet', 'connect', 'localService', 'palette'];
import fs from 'node:fs';
import path from 'node:path';

/** The `./x.js` files a built file requires (esbuild's CommonJS output: `require("./x.js")`). */
function localRequires(text) {
  return [...text.matchAll(/require\("\.\/([^"]+\.js)"\)/g)].map((m) => m[1]);
}

/** `{ [part]: { files, bytes } }` of the build in `dir`, or of `entries` ({ name, size, read() }) of a VSIX's dist/. */
export function releaseParts(dir, entries) {
  const files = entries ?? fs.readdirSync(dir).filter((f) => f.endsWith('.js')).map((name) => ({
    name, size: fs.statSync(path.join(dir, name)).size, read: () => fs.readFileSync(path.join(dir, name)),
  }));
  const byName = new Map(files.map((f) => [f.name, f]));
  /** extension.js, or a live-core file, and every chunk it requires at load, transitively. */
  const closure = (start) => {
    const seen = new Set();
    const walk = (name) => {
      if (seen.has(name) || !byName.has(name)) return;
      seen.add(name);
      for (const r of localRequires(byName.get(name).read().toString('utf8'))) if (/^chunk-/.test(r)) walk(r);
    };
    walk(start);
    return seen;
  };
  const activation = closure('extension.js');
  const liveSet = new Set(files.filter((f) => /^live-core-/.test(f.name)).flatMap((f) => [...closure(f.name)]).filter((f) => !activation.has(f)));
  const connect = new Set(files.filter((f) => /^(connect-settings|bridge-words-file)-/.test(f.name)).flatMap((f) => [...closure(f.name)]).filter((f) => !activation.has(f) && !liveSet.has(f)));
  const localService = new Set(files.filter((f) => /^local-service-flows-/.test(f.name)).flatMap((f) => [...closure(f.name)]).filter((f) => !activation.has(f) && !liveSet.has(f) && !connect.has(f)));
  const palette = new Set(files.filter((f) => /^palette-picks-/.test(f.name)).flatMap((f) => [...closure(f.name)]).filter((f) => !activation.has(f) && !liveSet.has(f) && !connect.has(f) && !localService.has(f)));
  const parts = {
    activation: [...activation],
    liveSet: [...liveSet],
    connect: [...connect],
    localService: [...localService],
    palette: [...palette],
    late: ['net-undici.js', 'net-jose.js'],
    webview: ['webview.js'],
    bridge: ['bridge.js'],
    sandbox: ['sandbox.js'],
  };
  return Object.fromEntries(Object.entries(parts).map(([part, names]) => {
    const present = names.filter((n) => byName.has(n));
    return [part, { files: present, bytes: present.reduce((n, f) => n + byName.get(f).size, 0) }];
  }));
}
