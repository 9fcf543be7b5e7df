// #51: a local service killed outright (kill -9) is started again by the next window that needs
// it, with what the person had: its open and done cards, the sign-in (no new one asked) and the
// assistants' sessions (a live Claude Code session's next prompt is a card again). The real service
// process (sandbox.js --service, bundled as dist/ is), started by a window's own start logic
// (LocalService after Connect, local-service-flows.ts); the window closed; the service killed with
// SIGKILL, its announcements left naming a dead process; then a new window set up for the service
// finds them stale and starts it on the same home. Prompts are the bridge's hook with Claude
// Code's PermissionRequest; presses go through the client core the editor runs.
import '../../bench/with-vscode-stub'; // first: what LocalService loads lazily may import `vscode`
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SERVICE_FILE } from '../../src/bridge/home';
import { runHook } from '../../src/bridge/hook';
import { processGone } from '../../src/bridge/process-alive';
import { readServiceFile } from '../../src/bridge/service-link';
import { LOCAL_SERVICE_FILES } from '../../src/bridge/service-files';
import { readServiceState, type ServiceState } from '../../src/bridge/service-state';
import { MemorySecretStore } from '../../src/auth/secret-store';
import { decideSignIn } from '../../src/editor/connection/editor-approval';
import { LocalService, type LocalServiceHost } from '../../src/editor/connection/local-service-flows';
import { readIdentity } from '../../src/sandbox/machine-file';
import { createClientCore } from '../../src/sync/session';
import type { ClientCore } from '../../src/sync';
import { until } from '../kit/until';
import { serviceScript } from '../sandbox/service-process';

type Said = { hookSpecificOutput?: { decision?: { behavior?: string } } };

/** Claude Code's PermissionRequest, as its hook command gets it on stdin. */
const permission = (session: string, command: string, cwd: string) => JSON.stringify({
  session_id: session, transcript_path: '/tmp/t.jsonl', cwd, hook_event_name: 'PermissionRequest',
  tool_name: 'Bash', tool_input: { command, description: 'Release' }, permission_suggestions: [],
});

describe('editor: a killed local service is started again by the next window (#51)', function () {
  this.timeout(120_000);
  let box: string;
  let extension: string;
  const savedHome = process.env.ASSISTANT_CARDS_HOME;
  const cores: ClientCore[] = [];
  const windows: LocalService[] = [];

  before(async () => {
    box = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-dead-service-'));
    // The extension's folder as installed: dist/sandbox.js with SQLite's .wasm beside it.
    const script = await serviceScript();
    extension = path.join(box, 'extension');
    fs.mkdirSync(path.join(extension, 'dist'), { recursive: true });
    for (const f of fs.readdirSync(path.dirname(script))) fs.copyFileSync(path.join(path.dirname(script), f), path.join(extension, 'dist', f));
    // The assistants' home of this test (the service's home, its announcement, the hooks' session
    // keys), as the person's is for the window and its terminals.
    process.env.ASSISTANT_CARDS_HOME = path.join(box, 'assistant-cards');
  });
  after(async () => {
    for (const w of windows.splice(0)) w.dispose();
    for (const c of cores.splice(0)) await c.dispose();
    const state = readServiceState(path.join(box, 'assistant-cards', 'service'));
    if (state) { try { process.kill(state.pid, 'SIGKILL'); } catch { /* gone */ } }
    if (savedHome === undefined) delete process.env.ASSISTANT_CARDS_HOME; else process.env.ASSISTANT_CARDS_HOME = savedHome;
    fs.rmSync(box, { recursive: true, force: true });
  });

  /** A window as the editor makes one: its settings (the identity file it uses) and what it logs. */
  function openWindow(machineFile: string) {
    const settings = { machineFile };
    const logged: string[] = [];
    const host = {
      home: path.join(box, 'assistant-cards', 'service'), extensionUri: { fsPath: extension },
      machineFile: () => settings.machineFile, setKey() {}, showMessage() {}, signedIn: () => false, setUpElsewhere: () => false,
      refreshState: () => Promise.resolve(), signIn: () => Promise.resolve(),
      log: { info: (m: string) => logged.push(m), error: (m: string) => logged.push(`error: ${m}`), show() {} },
      vscode: {
        Uri: { joinPath: (base: { fsPath: string }, ...parts: string[]) => ({ fsPath: path.join(base.fsPath, ...parts) }) },
        workspace: {
          onDidChangeConfiguration: () => ({ dispose() {} }),
          getConfiguration: () => ({ inspect: () => ({}), update: (key: string, value: string) => { if (key === 'machineFile') settings.machineFile = value; return Promise.resolve(); } }),
        },
        ConfigurationTarget: { Global: 1 },
        l10n: { t: (m: string, ...a: unknown[]) => m.replace(/\{(\d+)\}/g, (_x, i: string) => String(a[Number(i)])) },
      },
    } as unknown as LocalServiceHost;
    const ls = new LocalService(host);
    windows.push(ls);
    return { ls, logged, settings };
  }

  /** The window's client core, on the identity file the service wrote, with the person's secret storage (shared by windows). */
  function coreOf(machineFile: string, secrets: MemorySecretStore): ClientCore {
    const core = createClientCore({
      baseUrl: readIdentity(machineFile)!.baseUrl!, secretStore: secrets, machineFile, lockDir: path.join(box, 'locks'),
      scope: { kind: 'machine' }, logger: { info() {}, warn() {}, error() {} },
    });
    cores.push(core);
    return core;
  }

  it('kill -9, then a new window: it starts it again on the same home; open and done cards, the sign-in and the sessions are there', async () => {
    const home = path.join(box, 'assistant-cards', 'service');
    const announced = path.join(box, 'assistant-cards', SERVICE_FILE);
    const project = path.join(box, 'shop');
    fs.mkdirSync(project);
    const secrets = new MemorySecretStore();

    // The first window: Claude Code connected there starts the service (a window set up for none).
    const first = openWindow(path.join(box, 'none', 'machine.json'));
    await first.ls.afterConnect();
    const state = readServiceState(home);
    assert.ok(state, `the service runs: ${first.logged.join('\n')}`);
    assert.equal(first.settings.machineFile, state.machineFile, 'the window set up for it');
    // Signed in, the person's Allow given in the editor (F2).
    const coreA = coreOf(state.machineFile, secrets);
    let userCode: string | undefined;
    const signingIn = coreA.signIn({ onProgress: (p) => { if (p.step === 'code') userCode = p.userCode; } });
    signingIn.catch(() => undefined);
    assert.equal(await decideSignIn(state, await until('the sign-in\'s code', () => userCode, 20_000), true), undefined);
    await signingIn;
    const signIns = fs.readFileSync(path.join(home, LOCAL_SERVICE_FILES.signIns), 'utf8');

    // Two Claude Code sessions ask: one is answered (done), one is left open, its hook waiting.
    const ask = (session: string, command: string) => runHook({
      app: 'claude-code', input: permission(session, command, project), service: readServiceFile(announced), terminal: () => ({ pid: process.pid }), waitMs: 60_000,
    });
    const answered = ask('sess-done', 'make release');
    const doneCard = await until('the first card', () => coreA.cards.list('pending').find((c) => c.title.includes('make release')), 30_000);
    const pressed = await coreA.act(coreA.gestures.fromUiEvent('test:dead-service'), await coreA.cards.whole(doneCard.id), { type: 'answer', answer: { approved: true } });
    assert.ok(pressed.ok, JSON.stringify(pressed));
    assert.equal((JSON.parse(await answered) as Said).hookSpecificOutput?.decision?.behavior, 'allow');
    const waiting = ask('sess-open', 'make deploy');
    const openCard = await until('the card left open', () => coreA.cards.list('pending').find((c) => c.title.includes('make deploy')), 30_000);
    const openBefore = await coreA.cards.whole(openCard.id);
    const doneBefore = await until('the answered card done', async () => { const c = await coreA.cards.whole(doneCard.id); return c.status === 'done' ? c : undefined; }, 30_000);
    await coreA.assistants.refresh();
    const assistantsBefore = coreA.assistants.list();

    // That window is closed.
    first.ls.dispose();
    await coreA.dispose();

    // Killed outright: what it announced stays on disk, naming a dead process.
    process.kill(state.pid, 'SIGKILL');
    await until('the service gone', () => processGone(state.pid) || undefined, 10_000);
    assert.equal(await waiting, '', 'the waiting hook prints nothing: Claude Code asks in its terminal');
    const stale = fs.readFileSync(path.join(home, LOCAL_SERVICE_FILES.state), 'utf8');
    assert.equal((JSON.parse(stale) as ServiceState).pid, state.pid, 'service.json names the dead process');
    assert.match(fs.readFileSync(announced, 'utf8'), new RegExp(`"pid":${state.pid}\\b`), 'local-service.json names the dead process');

    // The next window that needs it (set up for the service) finds the announcement stale and starts it again.
    const next = openWindow(state.machineFile);
    const again = await until('a service again', () => { const s = readServiceState(home); return s && s.pid !== state.pid ? s : undefined; }, 30_000);
    await until('the window says why it started it', () => next.logged.some((l) => /^local service: started \(it had ended\)/.test(l)) || undefined, 10_000)
      .catch((e: unknown) => { throw new Error(`${(e as Error).message}: ${next.logged.join('\n')}`); });
    assert.equal(again.home, home);
    assert.equal(again.machineFile, state.machineFile, 'the same computer');
    assert.equal(again.url, state.url, 'at the address the window signed in at (its port was free)');
    assert.equal(readServiceFile(announced)?.pid, again.pid, 'the hooks\' announcement names the new one');

    // Its core: signed in from what is kept (no sign-in asked, none allowed).
    const coreB = coreOf(state.machineFile, secrets);
    await coreB.start();
    await until('online without signing in', () => coreB.state.kind === 'online' || undefined, 20_000);
    assert.equal(fs.readFileSync(path.join(home, LOCAL_SERVICE_FILES.signIns), 'utf8'), signIns, 'no new sign-in');

    // The open card as it was, the done one with its answer and history.
    const openAfter = await until('the open card', () => coreB.cards.list('pending').find((c) => c.id === openCard.id), 20_000);
    const o = await coreB.cards.whole(openAfter.id);
    assert.deepEqual({ title: o.title, version: o.version, status: o.status, history: o.history }, { title: openBefore.title, version: openBefore.version, status: openBefore.status, history: openBefore.history });
    const d = await coreB.cards.whole(doneCard.id);
    assert.deepEqual({ status: d.status, answer: d.answer, history: d.history }, { status: doneBefore.status, answer: doneBefore.answer, history: doneBefore.history });
    assert.ok(d.history?.some((h) => h.type === 'answered' && h.appName === 'Assistant Cards for VS Code'), `who answered: ${JSON.stringify(d.history)}`);
    await coreB.answers.loadFirst();
    assert.ok(coreB.answers.get(doneCard.id), 'its Answers row');

    // The assistants and their sessions; a live session's next prompt is a card again, in the same agent.
    await coreB.assistants.refresh();
    const sessionsOf = (list: ReturnType<ClientCore['assistants']['list']>) =>
      list.flatMap((a) => a.agents.flatMap((g) => g.liveSessions.map((s) => `${a.id}/${g.id}/${s.appSessionId}`))).sort();
    assert.deepEqual(sessionsOf(coreB.assistants.list()), sessionsOf(assistantsBefore));
    assert.deepEqual(sessionsOf(assistantsBefore).map((s) => s.split('/')[2]), ['sess-done', 'sess-open']);
    const later = ask('sess-open', 'make deploy again');
    const laterCard = await until('the session\'s next prompt on a card', () => coreB.cards.list('pending').find((c) => c.title.includes('make deploy again')), 20_000)
      .catch(async (e: unknown) => { throw new Error(`${(e as Error).message}; the hook printed ${JSON.stringify(await Promise.race([later, Promise.resolve('(still waiting)')]))}`); });
    const laterWhole = await coreB.cards.whole(laterCard.id);
    assert.equal(laterWhole.agent?.id, o.agent?.id, 'the same agent');
    const out = await coreB.act(coreB.gestures.fromUiEvent('test:dead-service'), laterWhole, { type: 'answer', answer: { approved: true } });
    assert.ok(out.ok, JSON.stringify(out));
    assert.equal((JSON.parse(await later) as Said).hookSpecificOutput?.decision?.behavior, 'allow', 'Claude Code is told allow');
  });
});
