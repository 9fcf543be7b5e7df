// The card panel in plain Node (the bench's `vscode` stub, a fake webview) over the real card
// model: opening reads the card (the person's read); a change the model tells is shown as the
// model holds it, without a read, unless it holds only the lighter form.
import '../../bench/with-vscode-stub'; // first: src/editor modules import `vscode`
import { strict as assert } from 'node:assert';
import type { Card } from '../../src/api/schemas';
import { ContextKeys } from '../../src/editor/context-keys';
import { CardPanel } from '../../src/editor/panel/card-panel';
import type { ToWebview } from '../../src/shared/protocol';
import { CardModel } from '../../src/sync/card-model';
import { vscodeStub } from '../../bench/vscode-stub';
import { realHoldClock } from '../kit/clocks';

const silent = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, show() {}, dispose() {} };
const noop = { dispose() {} };

function world(o: { nextAfter?: () => undefined; pageUrl?: (card: { id: string; url?: string }) => Promise<string | undefined> } = {}) {
  const at = new Date().toISOString();
  const card = (version: number, patch: Partial<Card> = {}): Card => ({
    id: 'req_panel1', version, status: 'pending', turn: 'you', kind: 'choice', title: `Version ${version}`,
    urgency: 'normal', blocking: false, threadId: 'thr_1', createdAt: at, changedAt: at,
    assistant: { id: 'ast_1', name: 'Claude', app: 'claude-code' }, options: [{ id: 'a', label: 'A' }], ...patch,
  } as Card);
  /** What the service holds now; every read of the card is counted. */
  let onService = card(1);
  let reads = 0;
  const model = new CardModel({
    lists: { read: () => Promise.reject(new Error('no list reads here')) }, logger: silent, syncSignal: () => undefined,
    readCard: async () => { reads++; return onService; },
    refresh: () => Promise.reject(new Error('no list reads here')), holdClock: realHoldClock,
  });
  model.setScope({ kind: 'machine' });
  const posted: ToWebview[] = [];
  const waiters: { test: (m: ToWebview) => boolean; resolve: () => void }[] = [];
  const webview = {
    html: '', cspSource: 'vscode-resource:', asWebviewUri: (u: unknown) => u,
    onDidReceiveMessage: () => noop,
    postMessage: async (m: ToWebview) => {
      posted.push(m);
      for (const w of [...waiters]) if (w.test(m)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(); }
      return true;
    },
  };
  const panel = new CardPanel('req_panel1', { webview, title: '', iconPath: undefined, onDidDispose: () => noop, dispose() {} } as never, {
    core: { cards: model, gestures: { fromUiEvent: () => ({}) }, pageUrl: o.pageUrl } as never,
    log: silent as never, extensionUri: {} as never, contextKeys: new ContextKeys(),
    memory: { draft: () => undefined, sentWords: () => undefined } as never,
    timeZone: () => 'UTC', online: () => true, focusTerminal: async () => undefined,
    nextAfter: o.nextAfter ?? (() => undefined), openNext: () => undefined,
  });
  // As the panel manager does: each change the model tells reaches the card's panel.
  model.changed(({ card: c }) => { if (c.id === panel.cardId) panel.cardChanged(); });
  /** Resolves once the webview was sent the card at `version`. */
  const shows = (version: number) => new Promise<void>((resolve) => {
    const test = (m: ToWebview) => m.type === 'card' && m.card.version === version;
    if (posted.some(test)) resolve(); else waiters.push({ test, resolve });
  });
  return {
    model, panel, card, shows, posted,
    reads: () => reads,
    serviceHas: (c: Card) => { onService = c; },
  };
}

describe('card panel: what a model change shows', () => {
  it('opening reads the card; a newer whole card in the model is shown as the model holds it, with no read', async () => {
    const w = world();
    await w.panel.onMessage({ type: 'ready' });
    await w.shows(1);
    assert.equal(w.reads(), 1, 'opening: the person\'s read');
    w.model.upsert(w.card(2, { title: 'Version 2, from the feed' }));
    await w.shows(2);
    assert.equal(w.reads(), 1, 'the model held the whole card: no read');
    assert.equal(w.panel.shown()?.title, 'Version 2, from the feed');
    w.panel.dispose();
  });

  it('a model change to the lighter form is read whole once, then shown', async () => {
    const w = world();
    await w.panel.onMessage({ type: 'ready' });
    await w.shows(1);
    w.serviceHas(w.card(3, { title: 'Version 3, whole' }));
    w.model.upsert({ ...w.card(3), whole: false } as unknown as Card);
    await w.shows(3);
    assert.equal(w.reads(), 2, 'the lighter form: one read');
    assert.equal(w.panel.shown()?.title, 'Version 3, whole');
    w.panel.dispose();
  });

  it('a read of many cards looks for the next card once, not once per card', async () => {
    let looks = 0;
    const w = world({ nextAfter: () => { looks++; return undefined; } });
    await w.panel.onMessage({ type: 'ready' });
    assert.equal(looks, 1, 'ready: the webview is told what comes next');
    // As the panel manager does: any card added may change which one is next.
    w.model.added(() => w.panel.nextChanged());
    for (let i = 0; i < 500; i++) w.model.upsert(w.card(1, { id: `req_many${i}` }));
    await Promise.resolve();
    assert.equal(looks, 2, 'one look for the 500 cards the read added');
    w.panel.dispose();
  });
});

describe('card panel: opened without the person (#37)', () => {
  it('a panel that appeared unasked tells its webview to guard clicks: once ready, or at once when it already is', async () => {
    const w = world();
    w.panel.guardClicks();
    assert.equal(w.posted.some((m) => m.type === 'guardClicks'), false, 'not before the webview listens');
    await w.panel.onMessage({ type: 'ready' });
    assert.equal(w.posted.filter((m) => m.type === 'guardClicks').length, 1, 'told with its first words');
    w.panel.guardClicks();
    assert.equal(w.posted.filter((m) => m.type === 'guardClicks').length, 2, 'revealed again by a link: told again');
    w.panel.dispose();
  });
});

describe('card panel: Open in browser (#35)', () => {
  it('opens the one-time link the core asks the service for, not the card\'s plain url', async () => {
    // What the panel hands to the browser (src/editor/panel/open-link.ts).
    const opened: string[] = [];
    const env = vscodeStub.env;
    const saved = env.openExternal;
    env.openExternal = async (u: unknown) => { opened.push((u as { href: string }).href); return true; };
    try {
      const asked: { id: string; url?: string }[] = [];
      const w = world({ pageUrl: async (card) => { asked.push({ id: card.id, ...(card.url ? { url: card.url } : {}) }); return `${card.url}?ticket=one-time`; } });
      await w.panel.onMessage({ type: 'ready' });
      await w.shows(1);
      w.model.upsert(w.card(2, { highStakes: true, url: 'https://cards.example/cards/req_panel1' }));
      await w.shows(2);
      await w.panel.onMessage({ type: 'openInBrowser' });
      assert.deepEqual(asked, [{ id: 'req_panel1', url: 'https://cards.example/cards/req_panel1' }]);
      assert.deepEqual(opened, ['https://cards.example/cards/req_panel1?ticket=one-time']);
      w.panel.dispose();
    } finally {
      env.openExternal = saved;
    }
  });
});
