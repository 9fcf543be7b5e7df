// One way to tell the person what a press did (#39): every PressOutcome kind, run through each of
// the three places a person presses (the card panel, the command palette, a card's notification),
// is told in the words and with the buttons of press-words.ts, and those are the ones this table
// expects; the button the person picks on the palette's or a notification's toast does what its
// row below says (runPressButton, the one dispatch of both). Plain Node: the bench's `vscode` stub,
// with its notifications recorded here.
import '../../bench/with-vscode-stub'; // first: src/editor modules import `vscode`
import { strict as assert } from 'node:assert';
import type { Card } from '../../src/api/schemas';
import { vscodeStub } from '../../bench/vscode-stub';
import { registerCommands, type CommandHost } from '../../src/editor/commands';
import { CardNotifier } from '../../src/editor/cards/notifier';
import { ContextKeys } from '../../src/editor/context-keys';
import { CardPanel } from '../../src/editor/panel/card-panel';
import { buttonLabel, pressWords, type PressButton } from '../../src/editor/base/press-words';
import { runPressButton } from '../../src/editor/base/press-toast';
import { EVERYTHING } from '../../src/shared/grant-scopes';
import { inert } from '../../src/shared/plain-text';
import type { ActionMessage, ToWebview } from '../../src/shared/protocol';
import type { ActionType, PressOutcome } from '../../src/sync';

const ID = 'req_words1';
const at = new Date().toISOString();
const card = (patch: Partial<Card> = {}): Card => ({
  id: ID, version: 3, status: 'pending', turn: 'you', kind: 'approval', title: 'Deploy the site?',
  urgency: 'normal', blocking: false, threadId: 'thr_1', createdAt: at, changedAt: at,
  assistant: { id: 'ast_1', name: 'Claude', app: 'claude-code' }, ...patch,
} as Card);

const HOLDS: readonly ActionType[] = ['answer', 'gotIt', 'delegate'];
const done = (action: ActionType): PressOutcome => {
  const holdUntil = HOLDS.includes(action) ? Date.now() + 5_000 : undefined;
  return {
    ok: true, action, card: card({ version: 4 }),
    result: { id: ID, version: 4, ...(action === 'later' ? { until: '2026-12-01T09:00:00Z' } : {}), ...(action === 'delegate' ? { hears: 'while-working' } : {}) },
    ...(holdUntil ? { holdUntil } : {}),
  };
};
const failed = (code: string, extra: object = {}): PressOutcome => ({ ok: false, problem: { code, ...extra } });

type Severity = 'info' | 'warning' | 'error';
/** `out` is made when its test runs: a hold runs 5 s from then (the whole unit tier takes minutes). */
interface Row { name: string; out: () => PressOutcome; severity: Severity; buttons: PressButton[]; toast: RegExp; panel: RegExp }

/** Every outcome kind: each action done, and the problems that are told differently. */
const ROWS: Row[] = [
  { name: 'answer done', out: () => done('answer'), severity: 'info', buttons: ['undo'], toast: /The assistant hears it in [1-5] s\./, panel: /^Answered\.$/ },
  { name: 'Got it done', out: () => done('gotIt'), severity: 'info', buttons: ['undo'], toast: /notice closed\./, panel: /^Got it — closed\.$/ },
  { name: 'undo done', out: () => done('undo'), severity: 'info', buttons: [], toast: /undone; the card waits on you again\./, panel: /^Undone: the card waits on you again\.$/ },
  { name: 'message done', out: () => done('message'), severity: 'info', buttons: [], toast: /sent to the assistant\./, panel: /^Sent to the assistant\.$/ },
  { name: 'Later done', out: () => done('later'), severity: 'info', buttons: [], toast: /in Later until .+\./, panel: /^Put in Later\.$/ },
  { name: 'Back done', out: () => done('back'), severity: 'info', buttons: [], toast: /back in the stack\./, panel: /^Back in the stack\.$/ },
  { name: 'hand-over done', out: () => done('delegate'), severity: 'info', buttons: ['takeBack'], toast: /hears it while it works.* Handed over: "Deploy the site\?"\./, panel: /^Handed over\.$/ },
  { name: 'take-back done', out: () => done('takeBack'), severity: 'info', buttons: [], toast: /taken back; it waits on you again\./, panel: /^Taken back: it waits on you again\.$/ },
  { name: 'version conflict', out: () => failed('version_conflict', { fresh: card({ version: 9 }) }), severity: 'warning', buttons: ['showNewVersion'], toast: /The card changed after you saw it/, panel: /The card changed after you saw it/ },
  { name: 'area change', out: () => failed('area_change'), severity: 'warning', buttons: ['showNewVersion'], toast: /moved to another area/, panel: /moved to another area/ },
  { name: 'high stakes', out: () => failed('high_stakes', { url: 'https://cards.example/c/req_words1' }), severity: 'warning', buttons: ['openInBrowser'], toast: /only be answered in the service/, panel: /only be answered in the service/ },
  { name: 'offline', out: () => failed('offline'), severity: 'error', buttons: ['openCard'], toast: /cannot be reached/, panel: /cannot be reached/ },
  { name: 'insufficient scope', out: () => failed('insufficient_scope', { scope: 'cards:later' }), severity: 'error', buttons: ['openCard'], toast: /not allowed/, panel: /not allowed/ },
  { name: 'refused by the service', out: () => failed('not_waiting', { serviceDetail: 'It was answered elsewhere.' }), severity: 'error', buttons: ['openCard'], toast: /no longer waiting on you.*The service says: It was answered elsewhere\./, panel: /no longer waiting on you/ },
  { name: 'an unknown problem', out: () => failed('unknown', { detail: 'boom' }), severity: 'error', buttons: ['openCard'], toast: /Something went wrong/, panel: /Something went wrong/ },
];

interface Shown { severity: Severity; text: string; buttons: string[] }

/** VS Code's notifications, recorded (each dismissed, unless `pick` names the button the person picks). */
function recordNotifications(pick?: string): { shown: Shown[]; restore(): void } {
  const window = vscodeStub.window as unknown as Record<string, unknown>;
  const saved = { ...window };
  const shown: Shown[] = [];
  const title = (i: unknown) => (typeof i === 'string' ? i : (i as { title: string }).title);
  const record = (severity: Severity) => async (text: string, ...items: unknown[]) => {
    shown.push({ severity, text, buttons: items.map(title) });
    return items.find((i) => pick !== undefined && title(i) === pick);
  };
  Object.assign(window, {
    showInformationMessage: record('info'), showWarningMessage: record('warning'), showErrorMessage: record('error'),
    onDidChangeWindowState: () => ({ dispose() {} }),
  });
  return { shown, restore: () => { for (const k of Object.keys(window)) if (!(k in saved)) delete window[k]; Object.assign(window, saved); } };
}

const silent = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, show() {}, dispose() {} };
const noop = { dispose() {} };
const settle = () => new Promise((r) => setTimeout(r, 0));

/** A core whose one press path answers `out`, whatever was pressed. */
function coreAnswering(out: PressOutcome, shown: Card) {
  const acted: string[] = [];
  return {
    acted,
    core: {
      state: { kind: 'online', me: {} },
      gestures: { fromUiEvent: (source: string) => ({ source }) },
      act: async (_g: unknown, _c: Card, action: { type: string }) => { acted.push(action.type); return out; },
      cards: {
        get: () => shown, read: async () => shown, whole: async () => shown, held: () => undefined, holdUntil: () => Date.now() + 5_000,
        added: () => noop, changed: () => noop, list: () => [],
      },
      assistants: { list: () => [], refresh: async () => undefined },
      feed: { isOwner: () => true },
      pageUrl: async () => undefined,
    },
  };
}

/** The panel's message for a press of `action` on the card it shows (version 3). */
function messageFor(action: ActionType): ActionMessage {
  const base = { requestId: 'r1', version: 3 };
  switch (action) {
    case 'answer': return { ...base, type: 'answer', body: { approved: true } };
    case 'message': return { ...base, type: 'message', body: 'Use the staging server.' };
    case 'later': return { ...base, type: 'later', until: '2026-12-01T09:00:00Z' };
    case 'delegate': return { ...base, type: 'delegate', assistantId: 'ast_2', mode: 'freely' };
    default: return { ...base, type: action };
  }
}

/** The card panel: the reply its webview is sent for a press the core answers with `out`. */
async function throughPanel(out: PressOutcome): Promise<ToWebview | undefined> {
  const action = out.ok ? out.action : 'back';
  const shown = card(action === 'gotIt' ? { kind: 'update' } : {});
  const { core } = coreAnswering(out, shown);
  const posted: ToWebview[] = [];
  const webview = { html: '', cspSource: 'x', asWebviewUri: (u: unknown) => u, onDidReceiveMessage: () => noop, postMessage: async (m: ToWebview) => { posted.push(m); return true; } };
  const panel = new CardPanel(ID, { webview, title: '', onDidDispose: () => noop, dispose() {} } as never, {
    core: core as never, log: silent as never, extensionUri: {} as never, contextKeys: new ContextKeys(),
    memory: { draft: () => undefined, sentWords: () => undefined, setDraft: async () => undefined, rememberWords: async () => undefined } as never,
    timeZone: () => 'UTC', online: () => true, focusTerminal: async () => undefined, nextAfter: () => undefined, openNext: () => undefined,
  });
  await panel.onMessage({ type: 'ready' });
  const reply = await panel.onMessage(messageFor(action), core.gestures.fromUiEvent('test') as never);
  panel.dispose();
  return reply;
}

/** The palette: its Back command on this window's tree node, the core answering `out`; `opened` gets the cards it opens. */
async function throughPalette(out: PressOutcome, pick?: string, opened: string[] = []): Promise<Shown[]> {
  const shown = card({ status: 'snoozed' });
  const { core } = coreAnswering(out, shown);
  const node = { id: ID };
  const handlers = new Map<string, (...a: unknown[]) => unknown>();
  const commands = vscodeStub.commands as unknown as Record<string, unknown>;
  commands.registerCommand = (id: string, h: (...a: unknown[]) => unknown) => { handlers.set(id, h); return noop; };
  const parts = { core, tree: { owns: (x: unknown) => x === node }, grant: { allowed: () => EVERYTHING } };
  const host = { log: silent, live: () => parts, openCard: (id: string) => { opened.push(id); }, timeZone: () => 'UTC', contextKeys: new ContextKeys() } as unknown as CommandHost;
  registerCommands(host);
  delete commands.registerCommand;
  const n = recordNotifications(pick);
  try {
    await handlers.get('assistantCards.back')!(node);
    await settle();
    return n.shown;
  } finally {
    n.restore();
  }
}

/** A card's notification: its answer button pressed (and, for an undo's outcome, its Undo after); `opened` gets the cards it opens. */
async function throughNotification(out: PressOutcome, pick?: string, opened: string[] = []): Promise<Shown[]> {
  const shown = card();
  const n = recordNotifications(pick);
  try {
    const { core } = coreAnswering(out, shown);
    const notifier = new CardNotifier(core as never, (id) => { opened.push(id); }, silent as never, () => undefined, new ContextKeys());
    const private_ = notifier as unknown as { answer(c: Card, b: { label: string; answer: object }): Promise<void>; undo(c: Card): Promise<void> };
    // The notifier presses only an answer, and Undo after it: each outcome through the press it can meet.
    if (out.ok && out.action === 'undo') await private_.undo(shown);
    else await private_.answer(shown, { label: 'Approve', answer: { approved: true } });
    await settle();
    notifier.dispose();
    return n.shown;
  } finally {
    n.restore();
  }
}

/** The outcomes a notification can meet: an answer's (done or not) and its Undo's. */
const meetsNotification = (out: PressOutcome): boolean => !out.ok || out.action === 'answer' || out.action === 'undo';

describe('one way to tell what a press did (#39): every outcome, each place', () => {
  for (const row of ROWS) {
    describe(row.name, () => {
      it('press-words: the severity, buttons and words of the table', () => {
        const out = row.out();
        const toast = pressWords(out, { shown: card(), surface: 'toast', now: Date.now() });
        assert.equal(toast.severity, row.severity);
        assert.deepEqual(toast.buttons, row.buttons);
        assert.match(toast.message, /^Assistant Cards: /);
        assert.match(toast.message, row.toast);
        const panel = pressWords(out, { shown: card(), surface: 'panel', now: Date.now() });
        assert.match(panel.message, row.panel);
        assert.deepEqual(panel.buttons, row.buttons, 'the same next steps offered in the panel');
        assert.equal(!!panel.problem, !out.ok, 'a failed press carries the problem the panel shows');
      });

      it('the card panel replies with those words', async () => {
        const out = row.out();
        const reply = await throughPanel(out);
        if (out.ok) {
          assert.equal(reply?.type, 'done');
          assert.match((reply as { message: string }).message, row.panel);
        } else {
          assert.equal(reply?.type, 'problem');
          const told = pressWords(out, { shown: card(), surface: 'panel', now: Date.now() });
          assert.deepEqual((reply as { problem: unknown }).problem, told.problem);
          assert.match(told.problem!.message, row.panel);
        }
      });

      it('the palette shows them, with those buttons', async () => {
        const shown = await throughPalette(row.out());
        assert.equal(shown.length, 1, 'one notification');
        assert.equal(shown[0]!.severity, row.severity);
        assert.match(shown[0]!.text, row.toast);
        assert.deepEqual(shown[0]!.buttons, row.buttons.map(buttonLabel));
      });

      if (meetsNotification(row.out())) {
        it('a card\'s notification shows them, with those buttons', async () => {
          const out = row.out();
          const shown = await throughNotification(out);
          assert.equal(shown.length, 1, 'one notification');
          assert.equal(shown[0]!.severity, row.severity);
          assert.match(shown[0]!.text, row.toast);
          assert.equal(shown[0]!.text, inert(pressWords(out, { shown: card(), surface: 'toast', said: 'Approve', now: Date.now() }).message));
          assert.deepEqual(shown[0]!.buttons, row.buttons.map(buttonLabel));
        });
      }
    });
  }

  it('the notification names the answer it sent, as the panel does', () => {
    const told = pressWords(done('answer'), { shown: card(), surface: 'toast', said: 'Approve', now: Date.now() });
    assert.match(told.message, /^Assistant Cards: Answered "Deploy the site\?" with Approve\. The assistant hears it in [1-5] s\.$/);
    const panel = pressWords(done('answer'), { shown: card(), surface: 'panel', said: 'You approved.', now: Date.now() });
    assert.equal(panel.said, 'You approved.');
  });
});

/** What runPressButton asked of the place that pressed, in order. */
function dispatchOf(picked: PressButton | undefined, out: PressOutcome, opts: { canPressAgain?: boolean } = {}) {
  const calls: string[] = [];
  const run = {
    ...(opts.canPressAgain === false ? {} : { pressAgain: async (action: string, made: Card) => { calls.push(`press ${action} v${made.version}`); } }),
    openCard: (id: string) => { calls.push(`open ${id}`); },
    openPage: async (c: { id: string; url?: string | undefined }) => { calls.push(`page ${c.id} ${c.url ?? '-'}`); },
  };
  return runPressButton(picked, out, card({ url: 'https://cards.example/plain' }), run).then(() => calls);
}

describe('a toast\'s button after a press (#39): one dispatch, runPressButton', () => {
  // Each button once, on an outcome that offers it; what it does in the palette and a notification alike.
  const BUTTONS: { button: PressButton; out: () => PressOutcome; calls: string[] }[] = [
    { button: 'undo', out: () => done('answer'), calls: ['press undo v4'] },
    { button: 'takeBack', out: () => done('delegate'), calls: ['press takeBack v4'] },
    { button: 'openCard', out: () => failed('offline'), calls: [`open ${ID}`] },
    { button: 'showNewVersion', out: () => failed('version_conflict', { fresh: card({ version: 9 }) }), calls: [`open ${ID}`] },
    { button: 'openInBrowser', out: () => failed('high_stakes', { url: 'https://cards.example/c/req_words1' }), calls: [`page ${ID} https://cards.example/c/req_words1`] },
  ];
  it('the table names every button', () => {
    assert.deepEqual(BUTTONS.map((b) => b.button).sort(), (['undo', 'takeBack', 'openCard', 'openInBrowser', 'showNewVersion'] satisfies PressButton[]).sort());
  });
  for (const row of BUTTONS) {
    it(`${row.button}: ${row.calls.join(', ')}`, async () => {
      assert.ok(pressWords(row.out(), { shown: card(), surface: 'toast', now: Date.now() }).buttons.includes(row.button), 'the outcome offers it');
      assert.deepEqual(await dispatchOf(row.button, row.out()), row.calls);
    });
  }
  it('dismissed: nothing', async () => {
    assert.deepEqual(await dispatchOf(undefined, done('answer')), []);
    assert.deepEqual(await dispatchOf(undefined, failed('offline')), []);
  });
  it('Open in Browser with no address in the problem: the card\'s own', async () => {
    assert.deepEqual(await dispatchOf('openInBrowser', failed('offline')), [`page ${ID} https://cards.example/plain`]);
  });
  it('the palette and a card\'s notification run the button picked through it (Open Card)', async () => {
    for (const through of [throughPalette, throughNotification]) {
      const opened: string[] = [];
      await through(failed('offline'), buttonLabel('openCard'), opened);
      await settle();
      assert.deepEqual(opened, [ID], through.name);
    }
  });
  it('Undo and Take Back press again only after a press done, and only where the place can', async () => {
    assert.deepEqual(await dispatchOf('undo', failed('offline')), []);
    assert.deepEqual(await dispatchOf('takeBack', failed('offline')), []);
    assert.deepEqual(await dispatchOf('undo', done('answer'), { canPressAgain: false }), []);
  });
});
