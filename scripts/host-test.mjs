// Runs the extension-host suite (test/editor/**/*.test.ts) inside a real VS Code.
// Default: code-server (scripts/install-code-server.mjs) driven by Playwright and Debian's
// chromium-headless-shell (setup.mjs, hostTestBrowser). ASSISTANT_CARDS_TEST_ELECTRON=1 (or
// --electron): @vscode/test-electron instead, for a machine that can download VS Code.
//
//   node scripts/host-test.mjs [--grep <regex>] [--results <file.json>] [--electron] [--keep]
//                              [--no-build --index <index.js>] [--no-dist-build] [--env NAME=value ...]
//                              [--vscode current|min] [--window trusted|untrusted|pseudo|de|ja|locales|both|others|all]
//
// --vscode: which code-server (install-code-server.mjs TARGETS; default ASSISTANT_CARDS_VSCODE or
// current): `min` is VS Code 1.93, the oldest engines.vscode allows. --window: the suite runs in a
// window with workspace trust off (`trusted`), and the *.untrusted.test.ts files run alone in a
// second window with trust on and its folder not trusted, i.e. Restricted Mode (`untrusted`),
// and the *.pseudo.test.ts files in a third window whose display language is the pseudo-locale
// qps-ploc (`pseudo`: code-server --locale, the bundles written by scripts/l10n-pseudo.mjs), and
// again in German and in Japanese (`de`, `ja`: the bundles we ship; the screenshots of the panel
// in each, checked for clipped and overlapping words); `locales` is those three, `both` is
// trusted and untrusted; default `all`, one after the other, counts summed.
//
// The suite gets, through the extension host's environment (extensionEnvironment):
//   ASSISTANT_CARDS_TEST_ROOT       the repo (dist/sandbox.js lives under it)
//   ASSISTANT_CARDS_TEST_WORKSPACE  the fresh workspace folder the window opened
//   ASSISTANT_CARDS_TEST_MACHINE_FILE  identity file the workspace settings point at (exists, no service)
//   ASSISTANT_CARDS_TEST_ARTIFACTS  artifacts/ (screenshots)
//   ASSISTANT_CARDS_TEST_DRIVER     http://127.0.0.1:<port> of the Playwright bridge (code-server only)
//   ASSISTANT_CARDS_TEST_RESULTS / _LOG / _GREP  for the in-host mocha (test/editor/index.ts)
//   ASSISTANT_CARDS_CACHE           this run's test cache (the real CLIs, scripts/install-clis.mjs)
//   plus every --env NAME=value and every ASSISTANT_CARDS_TEST_* of this process.
// Exit code 0 when every test passed. The results file holds {passed, failed, pending, failures,
// tests: [{title, file, ms, state, window}], windows: [{window, seconds}]}.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cacheDir, ensureCodeServer, targetNamed } from './install-code-server.mjs';
import { PSEUDO_LOCALE, writePseudo } from './l10n-pseudo.mjs';
import { hostTestBrowser } from './setup.mjs';
import { BROWSER_ARGS } from './test-browser.cjs';
import { stageExtension } from './package.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Chromium's headless shell (setup.mjs, hostTestBrowser: why).
const CHROMIUM = hostTestBrowser();
const TIMEOUT_MS = Number(process.env.ASSISTANT_CARDS_HOST_TIMEOUT_MS ?? 35 * 60_000);
/** The origin of the links host tests open (a notice's link): trusted by code-server, answered by the browser. */
const LINK_ORIGIN = 'https://ci.example.com';

function parseArgs(argv) {
  const o = {
    grep: undefined, results: undefined, electron: process.env.ASSISTANT_CARDS_TEST_ELECTRON === '1', keep: false, build: true, distBuild: true, env: {},
    vscode: process.env.ASSISTANT_CARDS_VSCODE ?? 'current', window: 'all',
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--grep' || a === '-g') o.grep = argv[++i];
    else if (a === '--results') o.results = argv[++i];
    else if (a === '--electron') o.electron = true;
    else if (a === '--keep') o.keep = true;
    else if (a === '--no-build') o.build = false;
    else if (a === '--no-dist-build') o.distBuild = false;
    else if (a === '--index') o.index = argv[++i];
    else if (a === '--vscode') o.vscode = argv[++i];
    else if (a === '--window') {
      o.window = argv[++i];
      if (!Object.keys(WINDOWS).includes(o.window)) throw new Error(`--window wants ${Object.keys(WINDOWS).join(', ')}, got "${o.window}"`);
    }
    else if (a === '--env') {
      const kv = argv[++i] ?? '';
      const eq = kv.indexOf('=');
      if (eq < 1) throw new Error(`--env wants NAME=value, got "${kv}"`);
      o.env[kv.slice(0, eq)] = kv.slice(eq + 1);
    } else throw new Error(`unknown argument ${a}`);
  }
  return o;
}

const say = (m) => console.log(`[host-test] ${m}`);

/** The windows each --window value opens, in order. */
const WINDOWS = {
  trusted: ['trusted'], untrusted: ['untrusted'], pseudo: ['pseudo'], de: ['de'], ja: ['ja'], locales: ['pseudo', 'de', 'ja'],
  both: ['trusted', 'untrusted'], all: ['trusted', 'untrusted', 'pseudo', 'de', 'ja'],
  // Every window but the trusted one: `npm test` runs them in a lane of their own, beside it.
  others: ['untrusted', 'pseudo', 'de', 'ja'],
};
/** The display language of the windows that run the *.pseudo.test.ts files. */
const LOCALE_OF = { pseudo: PSEUDO_LOCALE, de: 'de', ja: 'ja' };

function walk(dir, out = []) {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

/**
 * dist/ through esbuild.mjs, as `npm run build` makes it (no test handle: the trusted and pseudo
 * windows run the extension in VS Code's test mode, where activate() gives the tests the app),
 * then the host tests to out/host-test-<pid> (vscode, mocha and the ESM-only proxy package external).
 * The Restricted Mode window's VSIX is built apart, with the handle (installForRestrictedMode).
 */
async function build({ dist = true } = {}) {
  // --no-dist-build: another run beside this one built dist/ already, and its windows load it now.
  const r = dist ? spawnSync(process.execPath, ['esbuild.mjs'], { cwd: root, stdio: 'inherit' }) : { status: 0 };
  if (r.status !== 0) throw new Error('node esbuild.mjs failed');
  const esbuild = await import('esbuild');
  const testDir = path.join(root, 'test', 'editor');
  const entries = walk(testDir).filter((f) => f.endsWith('.test.ts') || f === path.join(testDir, 'index.ts'));
  // One folder per run, so two runs at once (several people on one checkout) do not collide.
  // Under the repo, so `mocha` resolves from node_modules.
  const outdir = path.join(root, 'out', `host-test-${process.pid}`);
  // Folders of runs whose process is gone (killed, or --keep) go now.
  for (const name of fs.existsSync(path.join(root, 'out')) ? fs.readdirSync(path.join(root, 'out')) : []) {
    const pid = Number(/^host-test-(\d+)$/.exec(name)?.[1]);
    if (!pid) continue;
    try { process.kill(pid, 0); } catch (e) { if (e.code === 'ESRCH') fs.rmSync(path.join(root, 'out', name), { recursive: true, force: true }); }
  }
  fs.rmSync(outdir, { recursive: true, force: true });
  await esbuild.build({
    entryPoints: entries, outdir, outbase: testDir, bundle: true, platform: 'node', format: 'cjs',
    target: 'node20', sourcemap: 'inline', external: ['vscode', 'mocha', 'proxy'], logLevel: 'warning',
  });
  return path.join(outdir, 'index.js');
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

/** A fresh P-256 identity file (DESIGN's shape) pointing at an address where nothing listens. */
function writeMachineFile(file) {
  const { privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const privateJwk = privateKey.export({ format: 'jwk' });
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ id: `mch_test${crypto.randomBytes(6).toString('hex')}`, name: 'host-test computer', baseUrl: 'http://127.0.0.1:9', privateJwk, madeBy: 'sandbox' }, null, 2), { mode: 0o600 }); // as a real identity file is (a readable one is warned about); a dead sandbox's, so the tests' sandboxes may replace it
}

/** untrusted: workspace trust on and the folder not trusted (Restricted Mode), no prompt at start. */
function prepareDirs({ untrusted = false } = {}) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'assistant-cards-host-'));
  const d = {
    tmp,
    home: path.join(tmp, 'home'),
    userData: path.join(tmp, 'user-data'),
    extensions: path.join(tmp, 'extensions'),
    browserProfile: path.join(tmp, 'chromium'),
    workspace: path.join(tmp, 'workspace'),
    machineFile: path.join(tmp, 'machine', 'machine.json'),
    results: path.join(tmp, 'results.json'),
    log: path.join(tmp, 'mocha.log'),
    config: path.join(tmp, 'code-server.yaml'),
  };
  for (const k of ['home', 'userData', 'extensions', 'browserProfile', 'workspace']) fs.mkdirSync(d[k], { recursive: true });
  fs.mkdirSync(path.join(d.workspace, '.vscode'), { recursive: true });
  fs.writeFileSync(path.join(d.workspace, '.vscode', 'settings.json'), '{}\n');
  fs.writeFileSync(path.join(d.workspace, 'README.md'), '# host-test workspace\n');
  // User settings: no tours, no trust prompts, no telemetry; a stable look for screenshots.
  // baseUrl and machineFile are `machine`-scoped (a workspace must not redirect them), so they go
  // in the user settings and the remote (Machine) settings, never in the workspace.
  const settings = JSON.stringify({
    'assistantCards.machineFile': d.machineFile,
    'workbench.startupEditor': 'none', 'telemetry.telemetryLevel': 'off',
    'security.workspace.trust.enabled': untrusted, 'security.workspace.trust.startupPrompt': 'never',
    'workbench.tips.enabled': false, 'extensions.autoUpdate': false, 'extensions.autoCheckUpdates': false,
    'workbench.colorTheme': 'Default Dark Modern', 'window.commandCenter': false,
    'chat.disableAIFeatures': true, 'workbench.secondarySideBar.defaultVisibility': 'hidden',
  }, null, 2);
  for (const scope of ['User', 'Machine']) {
    fs.mkdirSync(path.join(d.userData, scope), { recursive: true });
    fs.writeFileSync(path.join(d.userData, scope, 'settings.json'), settings);
  }
  writeMachineFile(d.machineFile);
  return d;
}

/** Follows the in-host mocha's log file and prints each new line. */
function tail(file) {
  let pos = 0;
  let buf = '';
  const read = () => {
    let fd;
    try { fd = fs.openSync(file, 'r'); } catch { return; }
    try {
      const size = fs.fstatSync(fd).size;
      if (size <= pos) return;
      const chunk = Buffer.alloc(size - pos);
      fs.readSync(fd, chunk, 0, chunk.length, pos);
      pos = size;
      buf += chunk.toString('utf8');
      const lines = buf.split('\n');
      buf = lines.pop() ?? '';
      for (const l of lines) console.log(l);
    } finally { fs.closeSync(fd); }
  };
  const timer = setInterval(read, 200);
  return () => { clearInterval(timer); read(); if (buf) console.log(buf); };
}

function readResults(file) {
  try {
    const r = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (typeof r.passed === 'number' && typeof r.failed === 'number') return r;
  } catch { /* fall through */ }
  return undefined;
}

function testEnv(d, opts, extra, kind = 'trusted') {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (k.startsWith('ASSISTANT_CARDS_TEST_') && v !== undefined) env[k] = v;
  Object.assign(env, {
    ASSISTANT_CARDS_TEST_ROOT: root,
    ASSISTANT_CARDS_TEST_WORKSPACE: d.workspace,
    ASSISTANT_CARDS_TEST_MACHINE_FILE: d.machineFile,
    ASSISTANT_CARDS_TEST_ARTIFACTS: path.join(root, 'artifacts'),
    ASSISTANT_CARDS_TEST_RESULTS: d.results,
    ASSISTANT_CARDS_TEST_LOG: d.log,
    // The test cache of this run (the real CLIs, installed once): the window's HOME is a fresh
    // folder, where each window installed Claude Code (and Codex) again, ~400 MB and ~10 s of CPU each.
    ASSISTANT_CARDS_CACHE: cacheDir(),
    ...(opts.grep ? { ASSISTANT_CARDS_TEST_GREP: opts.grep } : {}),
    ...(kind === 'untrusted' ? { ASSISTANT_CARDS_TEST_UNTRUSTED: '1' } : {}),
    ...(LOCALE_OF[kind] ? { ASSISTANT_CARDS_TEST_LOCALE: LOCALE_OF[kind] } : {}),
    ...extra,
    ...opts.env,
  });
  delete env.ASSISTANT_CARDS_TEST_ELECTRON;
  return env;
}

// ---- The Playwright bridge: host tests ask the runner to act on the workbench page. ----------

function locatorOf(page, req) {
  let scope = page;
  for (const f of req.frames ?? []) scope = scope.frameLocator(f);
  return scope.locator(req.selector);
}

/** axe-core's script, the one @axe-core/playwright injects (read once). */
let axeScript;
function axeSource() {
  const fromPlaywright = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'));
  axeScript ??= fromPlaywright('axe-core').source;
  return axeScript;
}

/** How many times each page has loaded: a test sees that "Reload Window" did reload a tab. */
const loads = new WeakMap();

async function bridgeOp(ctx, req) {
  const pageName = req.page ?? 'workbench';
  if (req.op === 'open') {
    const p = await ctx.browser.newPage();
    p.on('load', () => loads.set(p, (loads.get(p) ?? 0) + 1));
    ctx.pages.set(pageName, p);
    ctx.front = pageName; // a new tab is the one in front, as in a person's browser
    // The document, bounded as the workbench's own start is (Playwright's 30 s default is a guess
    // a loaded machine can outlast); the test then waits for the state it needs on that page.
    const bound = req.timeout ?? 120_000;
    await p.goto(req.url, { waitUntil: 'domcontentloaded', timeout: bound }).catch((e) => {
      throw new Error(`the ${pageName} page's document never loaded from ${req.url} within ${bound / 1000} s: ${e.message}`);
    });
    return { ok: true };
  }
  const page = ctx.pages.get(pageName);
  if (!page) throw new Error(`no page named ${pageName}`);
  // Inside a webview (nested frames, another renderer) a busy machine answers slower.
  const timeout = req.timeout ?? defaultTimeout(req);
  switch (req.op) {
    case 'close':
      await page.close();
      ctx.pages.delete(pageName);
      if (ctx.front === pageName) { ctx.front = 'workbench'; await ctx.pages.get('workbench')?.bringToFront(); }
      return { ok: true };
    case 'screenshot': {
      const name = String(req.name ?? 'screenshot').replace(/[^\w.-]/g, '_');
      const file = path.join(root, 'artifacts', name.endsWith('.png') ? name : `${name}.png`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      // A picture of a painted frame, not of a moment: fonts loaded, two frames drawn, animations
      // and the caret stilled (so a test never sleeps "for the pixels to settle" before one).
      await page.evaluate(() => globalThis.document.fonts.ready.then(() => new Promise((r) => globalThis.requestAnimationFrame(() => globalThis.requestAnimationFrame(r)))));
      const look = { path: file, animations: 'disabled', caret: 'hide', timeout };
      if (req.selector) await locatorOf(page, req).first().screenshot(look);
      else await page.screenshot(look);
      return { path: file };
    }
    case 'click':
      // The mouse left resting on a tree row shows that row's hover, which can cover the row to
      // click next ("subtree intercepts pointer events"): the mouse leaves first, as a person's
      // would. Not with keys held or `force`: a terminal link is hovered, then clicked, in place.
      if (!req.modifiers && !req.force) await page.mouse.move(0, 0);
      await locatorOf(page, req).first().click({ timeout, ...(req.modifiers ? { modifiers: req.modifiers } : {}), ...(req.force ? { force: true } : {}) });
      if (req.thenType) await page.keyboard.type(String(req.thenType));
      return { ok: true };
    case 'hover': await locatorOf(page, req).first().hover({ timeout, ...(req.modifiers ? { modifiers: req.modifiers } : {}), ...(req.force ? { force: true } : {}) }); return { ok: true };
    case 'fill': await locatorOf(page, req).first().fill(String(req.value ?? ''), { timeout }); return { ok: true };
    case 'press':
      if (req.selector) await locatorOf(page, req).first().press(req.key, { timeout });
      else await page.keyboard.press(req.key);
      return { ok: true };
    // A key held down for `ms`: the first keydown, then its repeats (Playwright sets `repeat` on a
    // key already down) about 30 times a second, as a keyboard's auto-repeat sends them.
    case 'hold': {
      const end = Date.now() + Number(req.ms ?? 1000);
      await page.keyboard.down(req.key);
      while (Date.now() < end) {
        await new Promise((r) => setTimeout(r, 33));
        await page.keyboard.down(req.key);
      }
      await page.keyboard.up(req.key);
      return { ok: true };
    }
    // A DOM event with its init dict (a keydown while an input method composes, which no key press makes).
    case 'dispatch': await locatorOf(page, req).first().dispatchEvent(String(req.event), req.init ?? {}, { timeout }); return { ok: true };
    case 'type': await page.keyboard.type(String(req.value ?? '')); return { ok: true };
    case 'waitFor': await locatorOf(page, req).first().waitFor({ state: req.state ?? 'visible', timeout }); return { ok: true };
    case 'text': return { text: await locatorOf(page, req).first().innerText({ timeout }) };
    case 'texts': return { texts: await locatorOf(page, req).allInnerTexts() };
    case 'count': return { count: await locatorOf(page, req).count() };
    case 'focused':
      // What has the keyboard inside the element's document, and whether its focus ring shows.
      return await locatorOf(page, req).first().evaluate((el) => {
        const a = el.ownerDocument.activeElement;
        if (!a || a === el.ownerDocument.body) return { key: null };
        const cs = el.ownerDocument.defaultView.getComputedStyle(a);
        return { key: a.getAttribute('data-key') ?? a.id ?? a.tagName, outlineStyle: cs.outlineStyle, outlineWidth: cs.outlineWidth, outlineColor: cs.outlineColor };
      }, undefined, { timeout });
    // Where the keyboard is in the page, for a test's failure message: the focused element and
    // its ancestors (tag and classes), and whether the quick input shows.
    case 'keyboardAt': return await page.evaluate(() => {
      const d = globalThis.document;
      const chain = [];
      for (let e = d.activeElement; e && chain.length < 6; e = e.parentElement) chain.push(`${e.tagName.toLowerCase()}${e.className && typeof e.className === 'string' ? `.${e.className.trim().split(/\s+/).slice(0, 3).join('.')}` : ''}`);
      const qi = d.querySelector('.quick-input-widget');
      return { chain, quickInput: qi ? { shown: qi.style.display !== 'none', inert: qi.inert, title: qi.querySelector('.quick-input-title')?.textContent ?? '' } : null };
    });
    case 'value': return { value: await locatorOf(page, req).first().inputValue({ timeout }) };
    // Computed styles of every element that matches now (none: an empty list), with the background of its document's body.
    case 'styles': {
      const props = req.props ?? [];
      return { styles: await locatorOf(page, req).evaluateAll((els, names) => els.map((el) => {
        const view = el.ownerDocument.defaultView;
        const cs = view.getComputedStyle(el);
        const out = { bodyBackground: view.getComputedStyle(el.ownerDocument.body).backgroundColor };
        for (const n of names) out[n] = cs.getPropertyValue(n);
        return out;
      }), props) };
    }
    case 'liveRegions':
      // The live regions of the element's document (what a screen reader speaks as it changes:
      // aria-live other than off, an implicitly live role, <output>), and, from the first call on,
      // every text each one came to hold (an observer the call leaves in the document).
      return await locatorOf(page, req).first().evaluate((el) => {
        const doc = el.ownerDocument;
        const w = doc.defaultView;
        const live = () => [...doc.querySelectorAll('[aria-live], [role="status"], [role="alert"], [role="log"], [role="marquee"], [role="timer"], output')]
          .filter((e) => e.getAttribute('aria-live') !== 'off');
        if (!w.__liveSaid) {
          w.__liveSaid = [];
          new w.MutationObserver((records) => {
            const changed = new Set();
            for (const r of records) {
              const node = r.target.nodeType === 1 ? r.target : r.target.parentElement;
              for (const region of live()) if (region === node || region.contains(node)) changed.add(region);
            }
            for (const region of changed) w.__liveSaid.push({ region: region.id || region.tagName, text: region.textContent ?? '' });
          }).observe(doc.documentElement, { subtree: true, childList: true, characterData: true });
        }
        return {
          regions: live().map((e) => ({ id: e.id, role: e.getAttribute('role'), live: e.getAttribute('aria-live'), text: e.textContent ?? '' })),
          said: w.__liveSaid,
        };
      }, undefined, { timeout });
    case 'axe': {
      // axe-core's own rules on one element, run inside the document that holds it (through
      // `frames`, for a webview): the same check as @axe-core/playwright's include, without its
      // injecting axe into every frame of the workbench and finishing in a new tab (5-15 s a
      // card under load instead of about one).
      let frame = page.mainFrame();
      for (const f of req.frames ?? []) {
        const el = await frame.locator(f).first().elementHandle({ timeout });
        frame = await el?.contentFrame();
        if (!frame) throw new Error(`axe: no document in ${f}`);
      }
      if (!await frame.evaluate(() => typeof globalThis.axe?.run === 'function')) await frame.evaluate(axeSource());
      const result = await frame.evaluate((sel) => {
        const el = globalThis.document.querySelector(sel);
        if (!el) throw new Error(`axe: nothing matches ${sel}`);
        return globalThis.axe.run(el, { resultTypes: ['violations'] });
      }, req.selector ?? 'html');
      return {
        violations: result.violations.map((v) => ({
          id: v.id, impact: v.impact ?? null, help: v.help,
          nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target, html: n.html.slice(0, 300), failureSummary: n.failureSummary })),
        })),
      };
    }
    // Words a person cannot read whole, inside the element matching `selector` (a webview through
    // `frames`): an element whose text overflows a box that cuts it (overflow not visible, or a
    // button, select or input whose own box is narrower than its words), and two visible leaf boxes
    // of words that overlap (neither inside the other). Each as `what: its words`.
    case 'clipped': return { clipped: await locatorOf(page, req).first().evaluate((top) => {
      const view = top.ownerDocument.defaultView;
      const out = [];
      const name = (el) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.getAttribute('data-key') ? `[data-key=${el.getAttribute('data-key')}]` : ''}`;
      const words = (el) => (el.innerText ?? el.value ?? '').trim().replace(/\s+/g, ' ').slice(0, 80);
      const shown = (el) => { const r = el.getBoundingClientRect(); const cs = view.getComputedStyle(el); return r.width > 0 && r.height > 0 && cs.visibility !== 'hidden' && cs.display !== 'none'; };
      // Words for screen readers only (a 1 px box that clips them) are not on screen to be cut.
      const forReaders = (el) => {
        for (let e = el; e; e = e.parentElement) {
          const cs = view.getComputedStyle(e);
          const r = e.getBoundingClientRect();
          if ((cs.overflow === 'hidden' || cs.clip !== 'auto') && (r.width <= 2 || r.height <= 2)) return true;
        }
        return false;
      };
      const all = [top, ...top.querySelectorAll('*')].filter((el) => !['SCRIPT', 'STYLE', 'svg', 'path', 'OPTION'].includes(el.tagName) && shown(el) && !forReaders(el));
      const ownText = (el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      for (const el of all) {
        const cs = view.getComputedStyle(el);
        const control = ['BUTTON', 'SELECT', 'INPUT', 'TEXTAREA'].includes(el.tagName);
        if (!control && !ownText(el)) continue;
        const cutsX = control || cs.overflowX !== 'visible' || cs.textOverflow === 'ellipsis';
        const cutsY = cs.overflowY !== 'visible' && el.tagName !== 'TEXTAREA';
        if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') continue; // what the person types scrolls by design
        if ((cutsX && el.scrollWidth > el.clientWidth + 1) || (cutsY && el.scrollHeight > el.clientHeight + 1)) out.push(`clipped ${name(el)}: ${words(el)}`);
      }
      const leaves = all.filter((el) => ownText(el) || ['BUTTON', 'SELECT', 'INPUT', 'TEXTAREA'].includes(el.tagName));
      // Line by line (an inline element's words wrapped over two lines are two boxes).
      const rects = leaves.map((el) => [...el.getClientRects()]);
      const meet = (ra, rb) => Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left) > 1 && Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top) > 1;
      for (let i = 0; i < leaves.length; i++) {
        for (let j = i + 1; j < leaves.length; j++) {
          const [a, b] = [leaves[i], leaves[j]];
          if (a.contains(b) || b.contains(a)) continue;
          if (rects[i].some((ra) => rects[j].some((rb) => meet(ra, rb)))) out.push(`overlap ${name(a)} "${words(a)}" and ${name(b)} "${words(b)}"`);
        }
      }
      return out;
    }, undefined, { timeout }) };
    case 'url': return { url: page.url() };
    case 'loads': return { loads: loads.get(page) ?? 0 };
    // Every tab of the browser, by address (a link opened from the workbench is a new tab).
    case 'tabs': return { urls: ctx.browser.pages().map((p) => p.url()) };
    case 'windowFocus': {
      // Whether the person is at this window. Headless, the page's focus never changes by itself;
      // the workbench reads it from document.hasFocus() when the window's focus or blur event
      // fires, and tells the extension host (window.state.focused) as for a real change.
      const focused = req.value === true;
      // The tab the person looks at (a second window's tab would otherwise hide this one).
      if (focused) { await page.bringToFront(); ctx.front = pageName; }
      // A visibilitychange too: the workbench reads hasFocus() on it whatever its focus tracker
      // believes. The tracker alone misses the event when real focus moves left it thinking the
      // opposite already (focus into a webview's frame and back): the extension host then never
      // heard of the change (seen with the trusted window's files in two parts, #36).
      await page.evaluate((f) => {
        globalThis.document.hasFocus = () => f;
        globalThis.dispatchEvent(new globalThis.Event(f ? 'focus' : 'blur'));
        globalThis.document.dispatchEvent(new globalThis.Event('visibilitychange'));
      }, focused);
      return { focused: await page.evaluate(() => globalThis.document.hasFocus()) };
    }
    default: throw new Error(`unknown op ${req.op}`);
  }
}

/** A driver op's bound when the test gives none: longer inside a webview's frames. */
function defaultTimeout(req) {
  return req.frames?.length ? 30_000 : 15_000;
}

/** What a bridge op that timed out waited for, in words, and where the screenshot of its page is. */
async function timedOut(ctx, req) {
  const what = `${req.op === 'waitFor' ? `"${req.selector}" to be ${req.state ?? 'visible'}` : `"${req.selector ?? 'the page'}" to ${req.op}`}${req.frames?.length ? ` inside ${req.frames.join(' > ')}` : ''} on the ${req.page ?? 'workbench'} page within ${(req.timeout ?? defaultTimeout(req)) / 1000} s`;
  const page = ctx.pages.get(req.page ?? 'workbench');
  let shot = '';
  try {
    const file = path.join(root, 'artifacts', 'timeouts', `${new Date().toISOString().replace(/[:.]/g, '-')}-${req.op}-${String(req.selector ?? '').replace(/[^\w-]+/g, '_').slice(0, 60)}.png`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await page?.screenshot({ path: file, timeout: 10_000 });
    if (page) shot = `; screenshot ${path.relative(root, file)}`;
  } catch { /* the page is gone: the words alone */ }
  return `timed out waiting for ${what}${shot}`;
}

function startBridge(ctx) {
  const server = http.createServer((httpReq, res) => {
    let body = '';
    httpReq.on('data', (c) => { body += c; });
    httpReq.on('end', async () => {
      let status = 200;
      let out;
      let req;
      try {
        if (httpReq.method !== 'POST' || httpReq.url !== '/op') throw Object.assign(new Error('POST /op only'), { status: 404 });
        req = JSON.parse(body);
        out = await bridgeOp(ctx, req);
      } catch (e) {
        status = e.status ?? 500;
        out = { error: e instanceof Error ? e.message : String(e) };
        // A wait that ran out names the state it waited for and keeps a picture of the page.
        if (e?.name === 'TimeoutError' && req) out.error = `${await timedOut(ctx, req)}: ${out.error}`;
      }
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(out));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// ---- code-server ------------------------------------------------------------------------------

async function waitHttp(url, ms, isDead) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (isDead()) throw new Error('code-server exited before it listened');
    try { const r = await fetch(url); if (r.status < 500) return; } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`code-server did not answer ${url} within ${ms} ms`);
}

/**
 * For the untrusted window: the extension as a person has it, a VSIX of this build installed into
 * the window's extensions folder (VS Code never holds trust against an extension under
 * development, so the suite's usual extensionDevelopmentPath would prove nothing), and a tiny
 * extension with no code as the development path the test payload needs. Returns that path.
 */
function installForRestrictedMode(cs, d) {
  const vsix = path.join(d.tmp, 'assistant-cards.vsix');
  // The package files and the tests' own build (--test-handle: activate() gives the tests the app,
  // though the installed VSIX runs outside VS Code's test mode), in this window's own folder:
  // never in the repository's dist/, which a development window loads (#37).
  const stageDir = path.join(d.tmp, 'test-handle-extension');
  stageExtension(stageDir, ['--test-handle']);
  const vsce = path.join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
  const pack = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--no-rewrite-relative-links', '-o', vsix], { cwd: stageDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (pack.status !== 0) throw new Error(`vsce package failed: ${pack.stderr || pack.stdout}`);
  const install = spawnSync(cs.node, [cs.entry, '--user-data-dir', d.userData, '--extensions-dir', d.extensions, '--install-extension', vsix], {
    encoding: 'utf8', env: { ...process.env, HOME: d.home },
  });
  if (install.status !== 0) throw new Error(`code-server --install-extension failed: ${install.stderr || install.stdout}`);
  const runner = path.join(d.tmp, 'test-runner-extension');
  fs.mkdirSync(runner, { recursive: true });
  fs.writeFileSync(path.join(runner, 'package.json'), JSON.stringify({
    name: 'host-test-runner', publisher: 'assistant-cards-tests', version: '0.0.0', engines: { vscode: '*' },
    capabilities: { untrustedWorkspaces: { supported: true }, virtualWorkspaces: true },
  }, null, 2));
  return runner;
}

/**
 * For the locale windows: VS Code takes a display language (`--locale`) only when a language pack
 * for it is known (else it falls back to English and vscode.env.language says `en`). This writes
 * the user data's languagepacks.json as installing a language pack would, with an empty
 * translation of VS Code for `locale`: VS Code's own words stay English, ours come from the
 * extension's bundle.l10n.<locale>.json and package.nls.<locale>.json.
 */
function writeLanguagePack(d, locale) {
  const translations = path.join(d.tmp, 'test-language-pack', 'main.i18n.json');
  fs.mkdirSync(path.dirname(translations), { recursive: true });
  fs.writeFileSync(translations, JSON.stringify({ contents: {} }));
  fs.writeFileSync(path.join(d.userData, 'languagepacks.json'), JSON.stringify({
    [locale]: {
      hash: crypto.createHash('md5').update(`assistant-cards-tests.${locale}-language-pack0.0.0`).digest('hex'),
      extensions: [{ extensionIdentifier: { id: `assistant-cards-tests.${locale}-language-pack` }, version: '0.0.0' }],
      translations: { vscode: translations }, label: locale,
    },
  }, null, 2));
}

async function runCodeServer(opts, d, indexJs, kind) {
  const untrusted = kind === 'untrusted';
  // The pseudo-locale's bundles, from the English ones as they are now (git-ignored, not in a VSIX),
  // and a language pack VS Code knows for it.
  const locale = LOCALE_OF[kind];
  if (kind === 'pseudo') writePseudo();
  if (locale) writeLanguagePack(d, locale);
  const target = targetNamed(opts.vscode);
  const cs = ensureCodeServer({ target });
  const min = target.name === 'min';
  const devPath = untrusted ? installForRestrictedMode(cs, d) : root;
  const port = await freePort();
  fs.writeFileSync(d.config, `bind-addr: 127.0.0.1:${port}\nauth: none\ncert: false\n`);
  const serverLog = fs.createWriteStream(path.join(d.tmp, 'code-server.log'));
  /** The pages the tests drive, by name, and the name of the one the person is at (in front). */
  const ctx = { browser: undefined, pages: new Map(), front: 'workbench' };
  const bridge = await startBridge(ctx);
  const driverUrl = `http://127.0.0.1:${bridge.address().port}`;
  const base = `http://127.0.0.1:${port}`;
  // Links to LINK_ORIGIN open without VS Code's "open the external website?" prompt (which a test
  // window refuses to show), and the browser answers them itself: a test sees the tab a click
  // opens, with no network. code-server 4.93 has no flag for it: there, no origin is trusted.
  const linkOrigin = min ? undefined : LINK_ORIGIN;
  const env = testEnv(d, opts, {
    ASSISTANT_CARDS_TEST_DRIVER: driverUrl, ASSISTANT_CARDS_TEST_VSCODE_URL: base,
    // test/editor/oldest-vscode.ts: what the oldest VS Code's tier leaves out.
    ...(min ? { ASSISTANT_CARDS_TEST_OLDEST: '1' } : {}),
    ...(linkOrigin ? { ASSISTANT_CARDS_TEST_LINK_ORIGIN: linkOrigin } : {}),
  }, kind);
  const child = spawn(cs.node, [
    cs.entry, '--config', d.config, '--user-data-dir', d.userData, '--extensions-dir', d.extensions,
    '--disable-telemetry', '--disable-update-check', '--disable-getting-started-override',
    ...(untrusted ? [] : ['--disable-workspace-trust']),
    // code-server 4.93 has no --vscode-option (and needs none for the test payload).
    ...(min ? [] : ['--vscode-option', 'enable-smoke-test-driver']),
    ...(linkOrigin ? ['--link-protection-trusted-domains', linkOrigin] : []),
    ...(locale ? ['--locale', locale] : []),
  ], {
    cwd: d.workspace,
    detached: true, // its own process group, killed whole at the end (a watcher child outlives it otherwise)
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))),
      // VS Code 1.93's remote extension host ignores the payload's extensionEnvironment; it
      // inherits code-server's own environment, so the test variables go there too.
      ...(min ? env : {}),
      HOME: d.home, XDG_CONFIG_HOME: path.join(d.home, '.config'), XDG_DATA_HOME: path.join(d.home, '.local/share'), PATH: `${path.dirname(cs.node)}${path.delimiter}${process.env.PATH ?? ''}`,
    },
  });
  child.stdout.pipe(serverLog);
  child.stderr.pipe(serverLog);
  let dead = false;
  child.on('exit', () => { dead = true; });
  const signalGroup = (sig) => { try { process.kill(-child.pid, sig); return true; } catch { return false; } };
  const killGroup = () => { signalGroup('SIGTERM'); };
  // SIGTERM, up to 3 s for the whole group to go, then SIGKILL whatever is left.
  const stopGroup = async () => {
    if (!signalGroup('SIGTERM')) return;
    for (let i = 0; i < 30 && signalGroup(0); i++) await new Promise((r) => setTimeout(r, 100));
    signalGroup('SIGKILL');
  };
  process.on('exit', killGroup);
  // Ctrl+C reaches only the terminal's process group, not code-server's own: stop it here.
  for (const sig of ['SIGINT', 'SIGTERM']) process.once(sig, () => { killGroup(); process.exit(130); });

  let browser;
  const stopTail = tail(d.log);
  try {
    await waitHttp(`${base}/healthz`, 60_000, () => dead);
    const { chromium } = await import('playwright-core');
    browser = await chromium.launchPersistentContext(d.browserProfile, {
      executablePath: CHROMIUM, headless: true, viewport: { width: 1280, height: 800 },
      args: [...BROWSER_ARGS],
    });
    ctx.browser = browser;
    await browser.route(`${LINK_ORIGIN}/**`, (r) => r.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>opened</title>' }));
    const page = browser.pages()[0] ?? (await browser.newPage());
    ctx.pages.set('workbench', page);
    // A link the workbench opens (Copy and Open, a notice's link) is a new tab in front of it; the
    // person glances at it and comes back. Left in front, every later action on the workbench
    // behind it was slow: after the sign-in test's Copy and Open, the panel's Tab test took 9.8 s
    // instead of 1.3 and its axe test 50 s instead of 11, for the rest of the run. The tab stays
    // open (`tabs` lists it); the page the person is at comes back to the front.
    browser.on('page', (opened) => {
      opened.waitForLoadState('domcontentloaded').catch(() => undefined).then(async () => {
        if ([...ctx.pages.values()].includes(opened)) return; // a page a test opened (`open`)
        await ctx.pages.get(ctx.front)?.bringToFront().catch(() => undefined);
      });
    });
    let resolveExit;
    const exited = new Promise((r) => { resolveExit = r; });
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      if (process.env.ASSISTANT_CARDS_TEST_VERBOSE === '1') console.log(`[workbench ${type}] ${(args ?? []).map(String).join(' ')}`);
    });
    await page.exposeFunction('codeAutomationExit', (code) => { resolveExit(Number(code)); });
    const authority = `vscode-remote://127.0.0.1:${port}`;
    const payload = [
      ['extensionDevelopmentPath', `${authority}${devPath}`],
      ['extensionTestsPath', `${authority}${indexJs}`],
      ['extensionEnvironment', JSON.stringify(env)],
    ];
    const url = `${base}/?folder=${encodeURIComponent(d.workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
    say(`code-server ${target.codeServer} (VS Code ${target.vscode}) ${base}, ${kind} window, workspace ${d.workspace}`);
    // The workbench's document, not its every script loaded ('load', 30 s by default, outlasted on a
    // loaded machine): the suite's own start is what the run waits for next.
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 120_000 }).catch((e) => {
      throw new Error(`the workbench page's document never loaded from ${base} within 120 s: ${e.message}`);
    });
    const timeout = new Promise((r) => setTimeout(() => r('timeout'), TIMEOUT_MS).unref());
    const code = await Promise.race([exited, timeout]);
    if (code === 'timeout') say(`no result within ${TIMEOUT_MS / 1000} s; see ${path.join(d.tmp, 'code-server.log')}`);
    return code === 'timeout' ? 1 : code;
  } finally {
    stopTail();
    await browser?.close().catch(() => {});
    bridge.close();
    await stopGroup();
  }
}

// ---- @vscode/test-electron --------------------------------------------------------------------

async function runElectron(opts, d, indexJs) {
  let te;
  try { te = await import('@vscode/test-electron'); } catch {
    throw new Error('@vscode/test-electron is not installed: npm i -D @vscode/test-electron');
  }
  const stopTail = tail(d.log);
  try {
    return await te.runTests({
      extensionDevelopmentPath: root, extensionTestsPath: indexJs,
      extensionTestsEnv: testEnv(d, opts, {}),
      launchArgs: [d.workspace, '--disable-extensions', '--disable-workspace-trust', `--user-data-dir=${d.userData}`, `--extensions-dir=${d.extensions}`],
    }).then(() => 0, (e) => { say(`test-electron: ${e instanceof Error ? e.message : e}`); return 1; });
  } finally { stopTail(); }
}

/** One window's run: fresh folders, code-server (or test-electron), the results it wrote. */
async function runWindow(opts, indexJs, kind) {
  const started = Date.now();
  const d = prepareDirs({ untrusted: kind === 'untrusted' });
  let code;
  try {
    code = opts.electron ? await runElectron(opts, d, indexJs) : await runCodeServer(opts, d, indexJs, kind);
  } catch (e) {
    say(`could not run: ${e instanceof Error ? e.message : e}`);
    code = 1;
  }
  let results = readResults(d.results);
  if (!results) {
    say('the suite wrote no results (it did not start, or crashed): counted as 1 failed');
    results = { passed: 0, failed: 1, pending: 0, failures: [{ title: 'extension-host suite did not report', error: `exit ${code}` }] };
  } else if (code !== 0 && results.failed === 0) {
    results = { ...results, failed: 1, failures: [{ title: 'extension host exited with an error', error: `exit ${code}` }] };
  }
  const where = opts.electron ? 'test-electron' : `code-server, VS Code ${targetNamed(opts.vscode).vscode}, ${kind} window`;
  say(`${results.passed} passed, ${results.failed} failed, ${results.pending ?? 0} pending in ${((Date.now() - started) / 1000).toFixed(1)} s (${where})`);
  if (!opts.keep) fs.rmSync(d.tmp, { recursive: true, force: true });
  else say(`kept ${d.tmp}`);
  return results;
}

export async function runHostTests(opts) {
  if (!opts.build && !opts.index) throw new Error('--no-build needs --index <out/.../index.js>');
  targetNamed(opts.vscode); // an unknown --vscode fails before anything is built
  const indexJs = opts.build ? await build({ dist: opts.distBuild && !(process.env.ASSISTANT_CARDS_DIST_BUILT === '1' && fs.existsSync(path.join(root, 'dist', 'extension.js'))) }) : path.resolve(opts.index);
  // test-electron has no untrusted or pseudo window of its own: it runs the trusted suite only.
  // On the oldest VS Code, `all` leaves out the German and Japanese windows: their words come from
  // the same files on both, and how 1.93 loads a bundle and shows it the pseudo window checks there.
  const leftOutOnOldest = ['de', 'ja'];
  const windows = opts.electron ? ['trusted']
    : WINDOWS[opts.window ?? 'all'].filter((w) => !(['all', 'others'].includes(opts.window ?? 'all') && targetNamed(opts.vscode).name === 'min' && leftOutOnOldest.includes(w)));
  // `tests`: each test's time, with its window; `windows`: each window's wall time (the run's timings file).
  const results = { passed: 0, failed: 0, pending: 0, failures: [], tests: [], windows: [] };
  for (const kind of windows) {
    const started = Date.now();
    const r = await runWindow(opts, indexJs, kind);
    results.passed += r.passed;
    results.failed += r.failed;
    results.pending += r.pending ?? 0;
    results.failures.push(...(r.failures ?? []));
    results.tests.push(...(r.tests ?? []).map((t) => ({ ...t, window: kind })));
    results.windows.push({ window: kind, seconds: Math.round((Date.now() - started) / 100) / 10 });
  }
  if (windows.length > 1) say(`${results.passed} passed, ${results.failed} failed, ${results.pending} pending in all`);
  if (opts.results) fs.writeFileSync(opts.results, JSON.stringify(results, null, 2));
  if (opts.build && !opts.keep) fs.rmSync(path.dirname(indexJs), { recursive: true, force: true });
  else if (opts.keep) say(`kept ${path.dirname(indexJs)}`);
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const opts = parseArgs(process.argv.slice(2));
  const r = await runHostTests(opts);
  process.exit(r.failed > 0 ? 1 : 0);
}
