// The paths a person walks in the card panel that no other host test walks, each driven as a
// person would (Playwright under code-server: role, accessible name, keys), and each checked where
// it lands (what the assistant heard, the sandbox's card, the workbench). They run twice: in
// `machine` scope, and in the default `workspace` scope, where the asking assistant's live session
// is matched to a real terminal of this window by its cwd (no scope setting written).
// Also: a card id printed in a real terminal is a link that opens the card.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { newCard, sandboxCard, signInApproved, unwire, until, wire, type World } from './cards-helpers';
import { intoWorkspaceScope } from './helpers/workspace-scope';
import { driver, driverAvailable } from './helpers/driver';
import { testEnv } from './helpers/env';
import { heardOnce, inPanel, openFromTree } from './helpers/card-panel-ui';
import { shortHold } from './helpers/hold';

const PANEL = '#workbench\\.parts\\.panel';

type Mode = 'machine' | 'workspace';

/**
 * Trusts `origin` for links as "Manage Trusted Domains" does: the workbench keeps the list in its
 * `trustedDomains:` file (read and written by VS Code's own file system provider, whose writes are
 * what link protection reads). Only the trust is set up here; the click and the tab stay real.
 */
async function trustOrigin(origin: string): Promise<void> {
  const file = vscode.Uri.parse('trustedDomains:/Trusted Domains.json');
  await vscode.workspace.fs.writeFile(file, Buffer.from(JSON.stringify([origin])));
}

for (const mode of ['machine', 'workspace'] as const satisfies readonly Mode[]) {
  describe(`card paths in the panel and terminal, ${mode} scope (Playwright)`, function () {
    this.timeout(180_000);
    let w: World | undefined;
    const terminals: vscode.Terminal[] = [];
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-paths-'));

    let workspaceScope: vscode.Disposable | undefined;

    const app = () => w!.app;
    const core = () => app().live!.core;

    /** Wall-clock hour and minute of `iso` in `timeZone`. */
    const wallClock = (iso: string, timeZone: string) => new Intl.DateTimeFormat('en-GB', { timeZone, hourCycle: 'h23', hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
    const systemZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

    before(async function () {
      if (!driverAvailable()) this.skip();
      // The terminal's DOM renderer: its text is in the page, for the mouse to find.
      await vscode.workspace.getConfiguration('terminal.integrated').update('gpuAcceleration', 'off', vscode.ConfigurationTarget.Global);
      w = await wire();
      await shortHold(w.sb); // no test here is about the hold (cards and ui-cards wait the real 5 s)
      await signInApproved(w);
      if (mode === 'workspace') workspaceScope = await intoWorkspaceScope(w);
    });
    after(async () => {
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      for (const t of terminals) t.dispose();
      workspaceScope?.dispose();
      await vscode.workspace.getConfiguration('terminal.integrated').update('gpuAcceleration', undefined, vscode.ConfigurationTarget.Global);
      await unwire(w);
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('a card id printed in a real terminal is a link: Ctrl+click on it opens the card', async () => {
      const title = `Linked from a terminal (${mode})`;
      const c = await newCard(w!, { kind: 'text', title });
      await until('the card in this window', () => core().cards.get(c.id), 60_000);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      const t = vscode.window.createTerminal({ name: 'card link' });
      terminals.push(t);
      t.show();
      await until('the terminal active', () => vscode.window.activeTerminal === t);
      const printed = path.join(dir, `printed-${mode}`);
      // As an assistant would: print the id (in two halves on the command line, so that only the
      // output holds it whole). The file says the shell has printed it.
      t.sendText(`printf 'asks you: %s%s\\n' '${c.id.slice(0, 6)}' '${c.id.slice(6)}'; : > '${printed}'`, true);
      await until('the shell to print the id', () => fs.existsSync(printed) || undefined, 60_000);
      const idText = { selector: `${PANEL} .xterm-rows span:has-text(${JSON.stringify(c.id)})`, timeout: 30_000 };
      // Links are found as the mouse moves over the text; Ctrl+click follows one. `force` (the
      // link layer covers the text) also makes Playwright give up at once, not wait, when the
      // text is not visible at that instant: the terminal redraws its rows (a prompt, a resize
      // as its tab list appears), so each attempt first waits for the id to show again.
      for (let attempt = 1; ; attempt++) {
        await driver.waitFor(idText);
        let pressed = true;
        try {
          await driver.hover({ ...idText, modifiers: ['Control'], force: true });
          if (attempt === 1) await driver.screenshot(mode === 'machine' ? 'terminal-card-link' : 'terminal-card-link-workspace');
          await driver.click({ ...idText, modifiers: ['Control'], force: true });
        } catch (e) {
          if (attempt === 4 || !/not visible|not attached|detached/i.test(String(e))) throw e;
          pressed = false;
        }
        const opened = pressed && await until('the card panel', () => app().panels.get(c.id)?.isReady(), 10_000).catch(() => undefined);
        if (opened) break;
        if (attempt === 4) throw new Error(`Ctrl+click on the card id ${c.id} in the terminal did not open its card`);
      }
      await driver.waitFor(inPanel(`text=${JSON.stringify(title)}`));
    });

    it('multi-choice: two boxes ticked, and the assistant hears both', async () => {
      const title = `Which checks run on push? (${mode})`;
      const c = await newCard(w!, {
        kind: 'choice', multi: true, title,
        options: [{ id: 'lint', label: 'Lint' }, { id: 'unit', label: 'Unit tests' }, { id: 'e2e', label: 'End-to-end' }],
      });
      await openFromTree(w!, c.id, title);
      await driver.click(inPanel('role=checkbox[name=/Lint/]'));
      await driver.click(inPanel('role=checkbox[name=/End-to-end/]'));
      await driver.waitFor(inPanel('role=checkbox[name=/End-to-end/][checked]'));
      assert.equal(await driver.count(inPanel('role=checkbox[checked]')), 2);
      await driver.click(inPanel('role=button[name=/^Answer$/]'));
      const h = await heardOnce(w!, c.id);
      assert.deepEqual([...(h.body.choiceIds as string[])].sort(), ['e2e', 'lint']);
    });

    it('questions: several answers typed and picked reach the assistant as answers', async () => {
      const title = `Set up the release (${mode})`;
      const c = await newCard(w!, {
        kind: 'questions', title,
        asks: [
          { id: 'name', title: 'Release name?' },
          { id: 'channel', title: 'Which channel?', options: [{ id: 'stable', label: 'Stable' }, { id: 'beta', label: 'Beta' }] },
          { id: 'notes', title: 'One line for the notes?' },
        ],
      });
      await openFromTree(w!, c.id, title);
      await driver.fill(inPanel('role=textbox[name="Release name?"]'), 'Juniper');
      await driver.click(inPanel('role=radio[name="Beta"]'));
      await driver.fill(inPanel('role=textbox[name="One line for the notes?"]'), 'Faster sign-in');
      await driver.click(inPanel('role=button[name=/^Answer$/]'));
      const h = await heardOnce(w!, c.id);
      assert.deepEqual(h.body.answers, { name: 'Juniper', channel: 'beta', notes: 'Faster sign-in' });
    });

    it('a kind this editor does not know: its title, summary and options, and a text box, answered as for any card', async () => {
      const title = `Which tone for the README? (${mode})`;
      const c = await newCard(w!, {
        kind: 'poll', title, summary: 'A kind newer than this extension.',
        options: [{ id: 'warm', label: 'Warm' }, { id: 'dry', label: 'Dry' }],
      });
      await openFromTree(w!, c.id, title);
      await driver.waitFor(inPanel('text="A kind newer than this extension."'));
      await driver.waitFor(inPanel('role=radio[name=/Warm/]'));
      await driver.click(inPanel('role=radio[name=/Dry/]'));
      await driver.fill(inPanel('role=textbox[name="Your answer"]'), 'dry, but kind');
      await driver.click(inPanel('role=button[name=/^Answer$/]'));
      const h = await heardOnce(w!, c.id);
      assert.deepEqual(h.body.choiceIds, ['dry']);
      assert.equal(h.body.text, 'dry, but kind');
    });

    it('Later at a picked date and time: that instant, with this computer\'s time zone, reaches the service', async () => {
      const title = `Renew the certificate (${mode})`;
      const c = await newCard(w!, { kind: 'text', title });
      await openFromTree(w!, c.id, title);
      const zone = systemZone();
      // Two days ahead, 09:30 on this computer's clock.
      const day = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(Date.now() + 2 * 86_400_000));
      await driver.fill(inPanel('[aria-label="Date"]'), day);
      await driver.fill(inPanel('[aria-label="Time"]'), '09:30');
      await driver.click(inPanel('role=button[name="Later until then"]'));
      const card = await until('in Later', async () => { const x = await sandboxCard(w!, c.id); return x.status === 'snoozed' ? x : undefined; }, 30_000);
      const asked = (card as { laterAsked?: { until: unknown; timeZone: unknown } }).laterAsked;
      assert.equal(asked?.timeZone, zone, 'the time zone is sent');
      assert.equal(typeof asked?.until, 'string');
      assert.equal(Date.parse(asked!.until as string), Date.parse(card.until!), 'the instant picked is the one kept');
      assert.equal(wallClock(card.until!, zone), '09:30');
      assert.equal(new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(card.until!)), day);
      await driver.waitFor(inPanel('role=button[name="Back now"]'));
    });

    it('Later tonight: 6 PM in this computer\'s time zone, the zone sent with it', async () => {
      const title = `Read the incident review (${mode})`;
      const c = await newCard(w!, { kind: 'text', title });
      await openFromTree(w!, c.id, title);
      await driver.click(inPanel('role=button[name=/Tonight/]'));
      const card = await until('in Later', async () => { const x = await sandboxCard(w!, c.id); return x.status === 'snoozed' ? x : undefined; }, 30_000);
      const zone = systemZone();
      assert.deepEqual((card as { laterAsked?: unknown }).laterAsked, { until: 'tonight', timeZone: zone });
      assert.equal(wallClock(card.until!, zone), '18:00');
    });

    it('the card\'s history names the app and the computer an answer came from', async () => {
      const title = `Ship the hotfix? (${mode})`;
      const c = await newCard(w!, { kind: 'approval', title });
      await openFromTree(w!, c.id, title);
      await driver.click(inPanel('role=button[name="Approve"]'));
      const h = await heardOnce(w!, c.id);
      assert.equal(h.body.approved, true);
      const answeredFrom = (await sandboxCard(w!, c.id) as { answeredFrom?: { app: string; machine?: { name: string } } }).answeredFrom;
      assert.ok(answeredFrom?.app, 'the service knows the app');
      assert.equal(answeredFrom.machine?.name, 'host-test computer');
      // The panel shows the answered card's history, naming both.
      const line = await driver.text(inPanel(`text=/Answered from .* on host-test computer/`, 60_000));
      assert.ok(line.includes(answeredFrom.app), `"${line}" names the app ${answeredFrom.app}`);
      await driver.waitFor(inPanel('li:has-text("host-test computer")'));
    });

    it('a notice (no assistant) shows in the tree; its link is a button named by the address, and a click opens it in a browser tab', async () => {
      const title = `Nightly deploy failed (${mode})`;
      const link = `https://ci.example.com/runs/${mode}`;
      const hook = await w!.sb.control<{ id: string; url: string }>('POST', '/_sandbox/webhooks', { name: 'CI', area: { id: 'prj_ci', name: 'CI' } });
      const res = await fetch(hook.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title, severity: 'error', url: link }) });
      assert.ok(res.ok, `the incoming notice address took it (${res.status})`);
      const { cardId } = await res.json() as { cardId: string };
      await until('the notice in the Cards view', () => app().live!.tree.visible('pending').some((x) => x.id === cardId) || undefined, 60_000);
      await openFromTree(w!, cardId, title);
      // The link's own address names its button (never words the notice chose).
      await driver.waitFor(inPanel(`role=button[name="${link}"]`));
      // A click opens it in the person's browser: a new tab at that address. A test window refuses
      // VS Code's "open the external website?" prompt, so the origin must be trusted first: the
      // runner's flag does it (--link-protection-trusted-domains); code-server 4.93 has none, so
      // there it is trusted as a person trusts one, in the workbench's own "Trusted Domains" file.
      if (!testEnv.linkOrigin) await trustOrigin('https://ci.example.com');
      await driver.click(inPanel(`role=button[name="${link}"]`));
      await until('a tab at the notice\'s link', async () => (await driver.tabs()).includes(link) || undefined, 30_000);
    });
  });
}
