// The cards in the extension host, against a sandbox this suite starts, in the default scope (the
// asking assistant live in a terminal of this window): sign-in to signed in, the
// tree filling and updating on a change, the badge and status bar count, and every action of the
// card panel reaching the sandbox as the right request (or, for high stakes, no request at all).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CardPanel, PanelReply } from '../../src/editor/panel/card-panel';
import type { Node } from '../../src/editor/cards/cards-tree';
import type { Request } from '../../src/shared/protocol';
import { driver, driverAvailable } from './helpers/driver';
import { heard, newCard, sandboxCard, signInApproved, unwire, until, wire, type World, signInStateFor } from './cards-helpers';
import { holdEnd, pastOnSandbox } from './helpers/hold';
import { intoWorkspaceScope } from './helpers/workspace-scope';

describe('cards (extension host, sandbox)', function () {
  this.timeout(120_000);
  let w: World;

  before(async () => {
    // Real clock: the extension host runs for minutes, and a frozen clock would fill the
    // sandbox's per-minute limits and push DPoP proofs out of its iat window.
    w = await wire();
  });
  /** The default scope a person gets (workspace): the card's assistant live in this window's terminal, once signed in. */
  let workspaceScope: vscode.Disposable | undefined;
  // Any one test runs alone: the sign-in test starts signed out, every other one signed in.
  beforeEach(async function () {
    await signInStateFor(w!, this.currentTest?.title, /^starts signed out/);
    if (!workspaceScope && w.app.live?.core.state.kind === 'online') workspaceScope = await intoWorkspaceScope(w);
  });
  after(async () => {
    workspaceScope?.dispose();
    await unwire(w);
  });

  const core = () => w.app.live!.core;
  const tree = () => w.app.live!.tree;

  /** Opens the card's panel and waits until its webview said `ready` and was shown the card. */
  async function openPanel(id: string): Promise<CardPanel> {
    w.app.openCard(id);
    const panel = await until('the card panel', () => w.app.panels.get(id));
    await until('the webview handshake', () => panel.isReady() && panel.shown()?.id === id);
    return panel;
  }

  /** What the person's press in the panel sends (with a gesture minted right then), and what the panel showed for it. */
  let lastRequest = 0;
  async function press(panel: CardPanel, m: Request): Promise<PanelReply | undefined> {
    const requestId = `t${++lastRequest}`;
    const reply = await panel.onMessage({ ...m, requestId }, core().gestures.fromUiEvent('test:panel'));
    if (reply) assert.equal(reply.requestId, requestId, 'the reply names its request');
    return reply;
  }
  const done = (r: PanelReply | undefined) => (r?.type === 'done' ? r : undefined);
  const problem = (r: PanelReply | undefined) => (r?.type === 'problem' ? r.problem : undefined);
  /** Counts the POSTs that reach the sandbox for one card: a fault that only waits 0 ms, counted down by each. */
  async function countWrites(cardId: string): Promise<() => Promise<number>> {
    const times = 1000;
    const f = await w.sb.control<{ id: number }>('POST', '/_sandbox/faults', { path: `/v1/cards/${cardId}/`, method: 'POST', delayMs: 0, times });
    return async () => {
      const left = (await w.sb.control<{ faults: { id: number; times: number }[] }>('GET', '/_sandbox/faults')).faults.find((x) => x.id === f.id)?.times ?? 0;
      return times - left;
    };
  }

  it('starts signed out, then signs in with the device flow to signed in', async () => {
    assert.notEqual(core().state.kind, 'online');
    assert.match(w.app.status.text, /sign in|not set up|offline/i);
    await signInApproved(w);
    assert.equal(core().state.kind, 'online');
    const sessions = await w.app.auth.getSessions();
    assert.equal(sessions.length, 1, 'the Accounts menu has the sign-in');
    assert.match(sessions[0]!.account.label, /host-test computer/);
    assert.notEqual(sessions[0]!.accessToken.length > 40, true, 'no real token is handed out');
  });

  it('fills the tree from the sandbox, with badge and status bar count', async () => {
    const a = await newCard(w, { kind: 'choice', title: 'Which database?', options: [{ id: 'pg', label: 'Postgres' }, { id: 'sq', label: 'SQLite' }], recommendedIds: ['pg'], blocking: true, urgency: 'today' });
    const b = await newCard(w, { kind: 'approval', title: 'Run the migration?' });
    await until('both cards in Waiting on you', () => {
      const ids = tree().visible('pending').map((c) => c.id);
      return ids.includes(a.id) && ids.includes(b.id);
    });
    const groups = tree().getChildren() as Node[];
    assert.deepEqual(groups.map((g) => g.kind === 'group' && g.group), ['pending', 'agent', 'snoozed', 'delegated', 'done']);
    const kids = tree().getChildren(groups[0]);
    const node = kids.find((n) => n.kind === 'card' && n.id === a.id)!;
    const item = tree().getTreeItem(node);
    assert.equal(item.label, 'Claude · main: Which database?');
    assert.equal(item.id, `card:${a.id}`);
    assert.equal(item.contextValue, 'card:pending');
    assert.match(String(item.description), /today · blocking/);
    assert.deepEqual(tree().getParent(node), groups[0], 'getParent finds its group (reveal)');
    const waiting = core().cards.counts().waiting;
    assert.ok(waiting >= 2);
    await until('the badge count', () => tree().view.badge?.value === waiting);
    await until('the status bar count', () => w.app.status.text.includes(String(waiting)));
  });

  it('updates the one tree item when its card changes, and regroups on a move', async () => {
    const c = await newCard(w, { kind: 'text', title: 'Name the branch' });
    await until('the card', () => core().cards.get(c.id));
    const fired: (Node | undefined)[] = [];
    const sub = tree().onDidChangeTreeData((n) => fired.push(n ?? undefined));
    try {
      await w.sb.control('POST', `/_sandbox/cards/${c.id}/area`, { id: 'prj_web', name: 'Web' });
      await until('the change to arrive', () => (core().cards.get(c.id)?.version ?? 0) > c.version);
      await until('one item refreshed', () => fired.some((n) => n?.kind === 'card' && n.id === c.id));
      assert.ok(!fired.includes(undefined), 'no whole-tree refresh for a change in place');
      await w.sb.control('POST', `/_sandbox/cards/${c.id}/withdraw`);
      await until('the card to leave Waiting on you', () => !tree().visible('pending').some((x) => x.id === c.id));
    } finally {
      sub.dispose();
    }
  });

  it('answer: the panel sends the shown version and the choice; the assistant hears it after the hold', async () => {
    // The real 5 s hold (the sandbox's default): this is the answer's test of it through the core.
    const c = await newCard(w, { kind: 'choice', title: 'Pick a colour', options: [{ id: 'r', label: 'Red' }, { id: 'b', label: 'Blue' }] });
    await until('the card', () => core().cards.get(c.id));
    const panel = await openPanel(c.id);
    const shown = panel.shown()!;
    assert.equal(panel.canAct(), true);
    const r = await press(panel, { type: 'answer', version: shown.version, body: { choiceIds: ['b'], note: { text: 'go' }, via: 'text' } });
    assert.ok(done(r)?.undoUntil, 'the undo countdown starts');
    assert.deepEqual(await heard(w, c.id), [], 'nothing heard during the hold');
    const h = await until('the assistant to hear', async () => { const x = await heard(w, c.id); return x.length ? x : undefined; });
    assert.equal(h[0]!.type, 'answer');
    assert.deepEqual(h[0]!.body.choiceIds, ['b']);
    assert.equal(h[0]!.body.version, shown.version);
    assert.deepEqual(h[0]!.body.note, { text: 'go' });
    panel.dispose();
  });

  it('undo within the hold: the card waits again and the assistant never hears it', async () => {
    const c = await newCard(w, { kind: 'approval', title: 'Deploy to staging?' });
    await until('the card', () => core().cards.get(c.id));
    const panel = await openPanel(c.id);
    await press(panel, { type: 'answer', version: panel.shown()!.version, body: { approved: true } });
    await until('the answered version shown', () => panel.shown()?.status === 'answered');
    // The real 5 s hold (the sandbox's default): undo lands well inside it.
    const end = await holdEnd(w.sb, c.id);
    assert.ok(done(await press(panel, { type: 'undo', version: panel.shown()!.version })), 'undone');
    assert.equal((await sandboxCard(w, c.id)).status, 'pending');
    await pastOnSandbox(w.sb, end); // past the hold: an undone answer is never heard
    assert.deepEqual(await heard(w, c.id), []);
    panel.dispose();
  });

  it('closing the panel stops the retries of its answer: nothing is sent after the person moved on', async () => {
    const c = await newCard(w, { kind: 'approval', title: 'Closed while the service fails' });
    await until('the card', () => core().cards.get(c.id));
    const panel = await openPanel(c.id);
    await w.sb.control('POST', '/_sandbox/faults', { path: `/v1/cards/${c.id}/answer`, status: 503, times: 50 });
    const remaining = async () => (await w.sb.control<{ faults: { times: number }[] }>('GET', '/_sandbox/faults')).faults[0]?.times ?? 0;
    try {
      let ended = false;
      const pressing = press(panel, { type: 'answer', version: panel.shown()!.version, body: { approved: true } });
      void pressing.finally(() => { ended = true; }).catch(() => undefined);
      await until('the first try refused', async () => (await remaining()) < 50 || undefined, 10_000);
      panel.dispose(); // the person closed the card while the service kept failing
      // The close aborts the press between its tries: it ends at once. Retrying on, it would end only
      // after its backoff (0.5, 1, 2, 4 s: 7.5 s) and five tries.
      await until('the press to end once the panel closed (not its retries run out)', () => ended, 5_000, 20);
      await pressing.catch(() => undefined);
      // The press is over, so nothing of it is left to send: what the service saw is final.
      const tries = 50 - (await remaining());
      const answers = (await w.sb.control<{ received: { method: string; url: string }[] }>('GET', '/_sandbox/received')).received
        .filter((r) => r.method === 'POST' && r.url.startsWith(`/v1/cards/${c.id}/answer`)).length;
      assert.equal(answers, tries, 'every try the service saw was refused by the fault');
      assert.ok(tries <= 3, `a few tries before the close, never the five of a press that retried on (${tries})`);
      assert.equal((await sandboxCard(w, c.id)).status, 'pending', 'nothing was answered');
    } finally {
      await w.sb.control('DELETE', '/_sandbox/faults');
    }
  });

  it('write to the assistant, Later and Back', async () => {
    const c = await newCard(w, { kind: 'text', title: 'Which port?' });
    const d = await newCard(w, { kind: 'text', title: 'Which host?' });
    await until('the cards', () => core().cards.get(c.id) && core().cards.get(d.id));
    const p1 = await openPanel(c.id);
    await press(p1, { type: 'message', version: p1.shown()!.version, body: 'use 8080' });
    const h = await heard(w, c.id);
    assert.equal(h[0]?.type, 'message');
    assert.equal(h[0]?.body.body, 'use 8080');
    assert.equal((await sandboxCard(w, c.id)).turn, 'agent');
    p1.dispose();

    const p2 = await openPanel(d.id);
    await press(p2, { type: 'later', version: p2.shown()!.version, until: '1h' });
    assert.equal((await sandboxCard(w, d.id)).status, 'snoozed');
    await until('the card in Later', () => tree().visible('snoozed').some((x) => x.id === d.id));
    await until('the panel shows the snoozed version', () => p2.shown()?.status === 'snoozed');
    await press(p2, { type: 'back', version: p2.shown()!.version });
    assert.equal((await sandboxCard(w, d.id)).status, 'pending');
    await until('the card back in Waiting on you', () => tree().visible('pending').some((x) => x.id === d.id));
    p2.dispose();
  });

  it('hand over to another assistant and take back', async () => {
    const helper = await w.sb.control<{ id: string }>('POST', '/_sandbox/assistants', { name: 'Codex', app: 'codex', machineId: w.machineId });
    await w.sb.control('POST', '/_sandbox/agents', { assistantId: helper.id, name: 'helper' });
    const c = await newCard(w, { kind: 'text', title: 'Review this diff' });
    await until('the card', () => core().cards.get(c.id));
    const panel = await openPanel(c.id);
    const list = await press(panel, { type: 'loadAssistants' });
    assert.ok(list?.type === 'assistants' && list.assistants.some((a) => a.id === helper.id), 'the picker lists the helper');
    await press(panel, { type: 'delegate', version: panel.shown()!.version, assistantId: helper.id, mode: 'loop', note: 'check tests' });
    assert.equal((await sandboxCard(w, c.id)).status, 'delegated');
    await until('the card with a helper', () => tree().visible('delegated').some((x) => x.id === c.id));
    await until('the panel shows the delegated version', () => panel.shown()?.status === 'delegated');
    await press(panel, { type: 'takeBack', version: panel.shown()!.version });
    assert.equal((await sandboxCard(w, c.id)).status, 'pending');
    panel.dispose();
  });

  it('high stakes: every action off, no request sent, Open in browser offered', async () => {
    const c = await newCard(w, { kind: 'approval', title: 'Pay the invoice?', highStakes: true });
    await until('the card', () => core().cards.get(c.id));
    const item = tree().getTreeItem({ kind: 'card', id: c.id });
    assert.equal(item.contextValue, 'card:pending card:highStakes');
    const panel = await openPanel(c.id);
    const shown = panel.shown()!;
    assert.equal(panel.canAct(), false);
    assert.ok(shown.url?.startsWith('http'), 'the card has its url');
    assert.equal(problem(await press(panel, { type: 'answer', version: shown.version, body: { approved: true } }))?.code, 'high_stakes');
    assert.equal((await sandboxCard(w, c.id)).status, 'pending');
    assert.deepEqual(await heard(w, c.id), []);
    panel.dispose();
  });

  it('version conflict: never resent; the panel shows the new version and asks again', async () => {
    const hook = await w.sb.control<{ id: string; url: string }>('POST', '/_sandbox/webhooks', { name: 'Uptime', area: { id: 'prj_web', name: 'Web' } });
    const send = (body: unknown) => fetch(hook.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const { cardId } = await (await send({ title: 'Site down', severity: 'critical', dedupeKey: 'down' })).json() as { cardId: string };
    await until('the notice', () => core().cards.get(cardId));
    const panel = await openPanel(cardId);
    const seen = panel.shown()!.version;
    // The same failure is reported again while the person looks: the card's version rises.
    await send({ title: 'Site down', severity: 'critical', dedupeKey: 'down' });
    // The person pressed Got it on the version they saw, before the new one arrived.
    const writes = await countWrites(cardId);
    try {
      const refused = await press(panel, { type: 'gotIt', version: seen });
      assert.equal(problem(refused)?.code, 'version_conflict');
      assert.equal(await writes(), 1, 'the service refused it');
      await until('the new version shown, asking again', () => (panel.shown()?.version ?? 0) > seen);
      assert.equal((await sandboxCard(w, cardId)).status, 'pending', 'nothing was answered');
      // A version never shown to this panel is refused without a request.
      const never = await press(panel, { type: 'gotIt', version: seen + 100 });
      assert.equal(problem(never)?.code, 'version_conflict');
      assert.equal(await writes(), 1, 'no request was started');
    } finally {
      await w.sb.control('DELETE', '/_sandbox/faults');
    }
    panel.dispose();
  });

  it('Got it closes a notice; "seen N times" on repeats', async () => {
    const hook = await w.sb.control<{ id: string; url: string }>('POST', '/_sandbox/webhooks', { name: 'Deploys', area: { id: 'prj_web', name: 'Web' } });
    const send = (body: unknown) => fetch(hook.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const first = await (await send({ title: 'Deploy failed', severity: 'error', dedupeKey: 'd1' })).json() as { cardId: string };
    await until('the notice', () => core().cards.get(first.cardId));
    await send({ title: 'Deploy failed', severity: 'error', dedupeKey: 'd1' });
    await until('the count to rise', () => /seen 2 times/.test(String(tree().getTreeItem({ kind: 'card', id: first.cardId }).description)));
    assert.match(String(tree().getTreeItem({ kind: 'card', id: first.cardId }).contextValue), /card:update/);
    const panel = await openPanel(first.cardId);
    assert.ok(done(await press(panel, { type: 'gotIt', version: panel.shown()!.version })), 'closed');
    await until('the notice to leave Waiting on you', async () => (await sandboxCard(w, first.cardId)).status !== 'pending');
    panel.dispose();
  });

  it('commands act on the tree\'s node (the person\'s menu press): Back, Open next card', async () => {
    const c = await newCard(w, { kind: 'text', title: 'Later via command' });
    await until('the card', () => core().cards.get(c.id));
    const panel = await openPanel(c.id);
    await press(panel, { type: 'later', version: panel.shown()!.version, until: 'tomorrow' });
    panel.dispose();
    await until('in Later', () => core().cards.get(c.id)?.status === 'snoozed');
    await vscode.commands.executeCommand('assistantCards.back', tree().nodeOf(c.id));
    assert.equal((await sandboxCard(w, c.id)).status, 'pending');
    await vscode.commands.executeCommand('assistantCards.nextCard');
    // The first blocking card waiting on the person, else the first (shared/next-card.ts), as the panel's Next.
    const waiting = core().cards.list('pending').filter((x) => x.turn === 'you' && x.status === 'pending');
    const first = waiting.find((x) => x.blocking === true) ?? waiting[0]!;
    await until('the next card opened', () => w.app.panels.get(first.id));
  });

  it('a command on a card that changed since the person saw it opens the card instead of acting', async () => {
    const hook = await w.sb.control<{ id: string; url: string }>('POST', '/_sandbox/webhooks', { name: 'Builds', area: { id: 'prj_ci', name: 'CI' } });
    const send = (body: unknown) => fetch(hook.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const notice = await (await send({ title: 'Build broke', severity: 'error', dedupeKey: 'b1' })).json() as { cardId: string };
    const seen = await until('the notice in the tree', () => core().cards.get(notice.cardId));
    // The feed stalls, so the tree keeps showing the version the person saw; the service moves on.
    await w.sb.control('POST', '/_sandbox/faults', { path: '/v1/changes', status: 503, times: 1000 });
    try {
      // End a long-poll held from before the fault with a card of its own (if none is held, it
      // just waits), then wait for a feed read the fault refused: the core reads the feed one
      // read at a time, so from then on it reads nothing new.
      await newCard(w, { kind: 'text', title: 'Ends the held long-poll' });
      await until('a feed read refused', async () => {
        const { faults } = await w.sb.control<{ faults: { path: string; times: number }[] }>('GET', '/_sandbox/faults');
        return faults.some((f) => f.path === '/v1/changes' && f.times < 1000) || undefined;
      }, 60_000);
      await send({ title: 'Build broke', severity: 'error', dedupeKey: 'b1', text: 'and again, worse' });
      assert.ok((await sandboxCard(w, notice.cardId)).version > seen.version, 'the service holds a newer version');
      assert.equal(core().cards.get(notice.cardId)?.version, seen.version, 'the tree still shows the old one');
      await vscode.commands.executeCommand('assistantCards.gotIt', tree().nodeOf(notice.cardId));
      assert.equal((await sandboxCard(w, notice.cardId)).status, 'pending', 'not closed unseen');
      await until('the card opened to look again', () => w.app.panels.get(notice.cardId));
    } finally {
      await w.sb.control('DELETE', '/_sandbox/faults');
    }
    w.app.panels.get(notice.cardId)?.dispose();
  });

  // What the person sees in the panel's webview (only one panel is open in the tests below).
  const WV = ['iframe.webview.ready', 'iframe#active-frame'];
  const inPanel = (selector: string) => ({ selector, frames: WV, timeout: 60_000 });

  it('an open panel follows the connection: actions off while offline, on again once back', async function () {
    if (!driverAvailable()) this.skip();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const c = await newCard(w, { kind: 'approval', title: 'Follow the connection' });
    await until('the card', () => core().cards.get(c.id));
    const panel = await openPanel(c.id);
    await driver.waitFor({ ...inPanel('button[data-key="approve"]:enabled'), state: 'attached' });
    await w.sb.control('POST', '/_sandbox/faults', { path: '/v1', status: 503, times: 1000 });
    try {
      await until('offline', () => core().state.kind === 'offline', 120_000);
      await driver.waitFor({ ...inPanel('button[data-key="approve"]:disabled'), state: 'attached' });
    } finally {
      await w.sb.control('DELETE', '/_sandbox/faults');
    }
    await until('back online', () => core().state.kind === 'online', 120_000);
    await driver.waitFor({ ...inPanel('button[data-key="approve"]:enabled'), state: 'attached' });
    panel.dispose();
  });

  it('keeps a draft when the panel is closed and opened again', async function () {
    if (!driverAvailable()) this.skip();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const c = await newCard(w, { kind: 'text', title: 'Describe the bug' });
    await until('the card', () => core().cards.get(c.id));
    const p1 = await openPanel(c.id);
    await p1.onMessage({ type: 'draft', draft: { text: 'half an answer', note: 'ask me later' } });
    p1.dispose();
    const p2 = await openPanel(c.id);
    assert.equal(await driver.value(inPanel('#field-text')), 'half an answer');
    assert.equal(await driver.value(inPanel('#field-note')), 'ask me later');
    p2.dispose();
  });

  it('a panel handed to the serializer shows its card again, with its draft (a real reload: two-windows)', async function () {
    if (!driverAvailable()) this.skip();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const c = await newCard(w, { kind: 'text', title: 'Revived after a reload' });
    await until('the card', () => core().cards.get(c.id));
    const p1 = await openPanel(c.id);
    await p1.onMessage({ type: 'draft', draft: { text: 'typed before the reload' } });
    p1.dispose();
    // What the serializer is handed after a reload: a bare panel of this view type.
    const bare = vscode.window.createWebviewPanel('assistantCards.card', 'Card', vscode.ViewColumn.Active);
    await w.app.panels.deserializeWebviewPanel(bare, { cardId: c.id });
    const p2 = await until('the revived panel', () => w.app.panels.get(c.id));
    assert.equal(p2.panel, bare, 'the panel VS Code brought back is the one shown');
    await until('the webview handshake', () => p2.isReady() && p2.shown()?.id === c.id);
    assert.equal(await driver.text(inPanel('#title')), 'Revived after a reload');
    assert.equal(await driver.value(inPanel('#field-text')), 'typed before the reload');
    p2.dispose();
  });

  it('filters by assistant, app, agent, thread and computer (through the service), and reads Done from the service only once that group is expanded', async () => {
    // A card of its own: this test runs alone too.
    const mine = await newCard(w, { kind: 'approval', title: 'Filtered in' });
    await until('its card in the tree', () => tree().visible('pending').some((c) => c.id === mine.id) || undefined);
    const all = tree().visible('pending').length;
    assert.ok(all > 0);
    await tree().setFilter({ apps: ['cursor'] });
    assert.equal(tree().visible('pending').length, 0, 'no card of another app passes, light or whole');
    await tree().setFilter({ assistants: [w.assistantId] });
    assert.ok(tree().visible('pending').length > 0);
    // A second agent of the same assistant: only its card passes its filter.
    const other = await w.sb.control<{ id: string }>('POST', '/_sandbox/agents', { assistantId: w.assistantId, name: 'filter-other' });
    const theirs = await newCard(w, { kind: 'approval', title: 'Asked by the other agent' }, other.id);
    await until('the other agent\'s card', () => core().cards.get(theirs.id));
    await tree().setFilter({ agents: [other.id] });
    assert.deepEqual(tree().visible('pending').map((c) => c.id), [theirs.id]);
    // A thread: the card asked in it only (a card's thread is its own id unless it names one).
    await tree().setFilter({ threadId: theirs.id });
    assert.deepEqual(tree().visible('pending').map((c) => c.id), [theirs.id]);
    // A computer: every card this computer's assistants asked passes (a notice has no computer:
    // it does not); another computer's, none here.
    await tree().setFilter({});
    const asked = tree().visible('pending').filter((c) => c.kind !== 'update').map((c) => c.id).sort();
    await tree().setFilter({ machines: [w.machineId] });
    assert.deepEqual(tree().visible('pending').map((c) => c.id).sort(), asked);
    const desk = await w.sb.control<{ id: string }>('POST', '/_sandbox/machines', { name: 'another desk' });
    await tree().setFilter({ machines: [desk.id] });
    assert.equal(tree().visible('pending').length, 0, 'no card of another computer');
    await tree().setFilter({});
    assert.equal(tree().visible('pending').length, all + 1);
    // Done: the service got no read of it until the group is expanded (getChildren on it), then one.
    // The Cards view's list reads (pages of 100); the Answers view, once opened (it starts collapsed), reads Done in
    // slices of 3 whole cards (sync/answers-model.ts) and is not what this test is about.
    const doneReads = async () => (await w.sb.control<{ received: { method: string; url: string }[] }>('GET', '/_sandbox/received'))
      .received.filter((r) => r.method === 'GET' && /^\/v1\/cards\?(.*&)?status=done(&|$)/.test(r.url) && /[?&]limit=100(&|$)/.test(r.url));
    // A card of its own in Done (its assistant withdrew it): the model drops it, reading no list.
    const closed = await newCard(w, { kind: 'approval', title: 'Withdrawn one' });
    await until('it in the model', () => core().cards.get(closed.id));
    await w.sb.control('POST', `/_sandbox/cards/${closed.id}/withdraw`);
    await until('it gone from the live groups', () => !core().cards.get(closed.id) || undefined);
    assert.deepEqual(await doneReads(), [], 'no Done list read before the group is expanded');
    const doneGroup = (tree().getChildren() as Node[]).find((g) => g.kind === 'group' && g.group === 'done')!;
    tree().getChildren(doneGroup);
    await until('a Done list read at the service', async () => (await doneReads()).length > 0 || undefined);
    await until('done cards loaded', () => tree().visible('done').length > 0);
  });

  it('signs out from the Accounts menu (removeSession)', async () => {
    const [s] = await w.app.auth.getSessions();
    assert.ok(s);
    await w.app.auth.removeSession();
    await until('signed out', () => core().state.kind === 'signed-out');
    assert.deepEqual(await w.app.auth.getSessions(), []);
    assert.match(w.app.status.text, /sign in/i);
  });
});
