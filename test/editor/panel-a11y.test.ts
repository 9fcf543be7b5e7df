// The card panel for everyone: axe-core on the panel's webview for every card kind, in Dark
// Modern, Light Modern, Light+ and both High Contrast themes. No serious or critical violation,
// and every text field stands out from the page; a screenshot of each goes to
// artifacts/a11y-<theme>-<kind>.png. One panel open at a time, one window for the whole file.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { onOldest } from './oldest-vscode';
import { newCard, signInApproved, unwire, until, wire, type World } from './cards-helpers';
import { driver, driverAvailable, type AxeViolation } from './helpers/driver';
import { intoWorkspaceScope } from './helpers/workspace-scope';
import { testLog } from './helpers/test-log';
import { permissionCard } from '../../src/bridge/permission-card';

const WV = ['iframe.webview.ready', 'iframe#active-frame'];
/** The theme setting, and the body class VS Code gives the webview in that theme. */
const THEMES = [
  ['dark', 'Default Dark Modern', 'vscode-dark'],
  ['light', 'Default Light Modern', 'vscode-light'],
  // Light+ has no input border: white fields on a white editor unless the panel draws one.
  ['light-plus', 'Default Light+', 'vscode-light'],
  ['hc-dark', 'Default High Contrast', 'vscode-high-contrast'],
  ['hc-light', 'Default High Contrast Light', 'vscode-high-contrast-light'],
] as const;

describe('card panel accessibility (axe, every kind, five themes)', function () {
  this.timeout(240_000);
  let w: World | undefined;
  /** The default scope a person gets (workspace): a live session of the card's assistant in this window's terminal. */
  let workspaceScope: vscode.Disposable | undefined;
  const cards: [kind: string, id: string][] = [];

  before(async function () {
    if (!driverAvailable()) this.skip();
    w = await wire();
    await signInApproved(w);
    workspaceScope = await intoWorkspaceScope(w);
    const add = async (kind: string, card: Parameters<typeof newCard>[1]) => cards.push([kind, (await newCard(w!, card)).id]);
    await add('choice', { kind: 'choice', title: 'Which database?', summary: 'We need one for the sessions.', options: [{ id: 'pg', label: 'Postgres' }, { id: 'sq', label: 'SQLite' }], recommendedIds: ['pg'], blocking: true, urgency: 'today' });
    await add('multi-choice', { kind: 'choice', multi: true, title: 'Which checks run on every push?', options: [{ id: 'lint', label: 'Lint' }, { id: 'types', label: 'Types' }, { id: 'e2e', label: 'End-to-end' }] });
    await add('approval', { kind: 'approval', title: 'Run the migration?', summary: 'Adds two columns to users.' });
    await add('question', { kind: 'text', title: 'Name the release branch' });
    await add('failure', { kind: 'failure', title: 'The deploy stopped at step 3', steps: [{ title: 'Build', state: 'done' }, { title: 'Roll out', state: 'failed', detail: 'readiness probe failed' }, { title: 'Smoke test', state: 'pending' }] });
    await add('unknown-kind', { kind: 'poll', title: 'Which tone for the README?', options: [{ id: 'plain', label: 'Plain' }, { id: 'playful', label: 'Playful' }] });
    // A file tool's change as the bridge writes it (#54): its diff lines in the theme's diff colours.
    await add('diff', { ...permissionCard('claude-code', { tool_name: 'Edit', cwd: '/home/me/shop', tool_input: { file_path: '/home/me/shop/src/cart.ts', old_string: 'export function total(items: Item[]) {\n  return items.length;\n}', new_string: 'export function total(items: Item[]) {\n  return items.reduce((sum, i) => sum + i.price, 0);\n}' } }) });
    await add('high-stakes', { kind: 'approval', title: 'Buy the reserved instances ($4,800)?', highStakes: true });
    const hook = await w.sb.control<{ url: string }>('POST', '/_sandbox/webhooks', { name: 'Uptime', area: { id: 'prj_web', name: 'Web' } });
    const sent = await (await fetch(hook.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'Site down', severity: 'critical', dedupeKey: 'a11y' }) })).json() as { cardId: string };
    cards.push(['notice', sent.cardId]);
    await until('every card in the model', () => cards.every(([, id]) => w!.app.live!.core.cards.get(id)), 60_000);
  });
  after(async () => {
    workspaceScope?.dispose();
    await vscode.workspace.getConfiguration('workbench').update('colorTheme', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await unwire(w);
  });

  const inPanel = (selector: string) => ({ selector, frames: WV, timeout: 60_000 });
  /** Whether a CSS colour shows on the page's background: not transparent, and not the same colour. */
  const seen = (color: string, page: string) => {
    const rgba = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
    const [r, g, b, a = 1] = rgba(color);
    const [pr, pg, pb] = rgba(page);
    return a > 0.2 && (r !== pr || g !== pg || b !== pb);
  };

  // On the oldest VS Code: Light+ (no input border, the hardest case for the fields' edges) and High
  // Contrast (the strictest); all five on the current one (docs/decisions.md, "#26").
  for (const [look, name, bodyClass] of THEMES.filter(([look]) => !onOldest() || look === 'light-plus' || look === 'hc-dark')) {
    it(`no serious or critical axe violation on any card kind (${look})`, async () => {
      await vscode.workspace.getConfiguration('workbench').update('colorTheme', name, vscode.ConfigurationTarget.Global);
      const found: string[] = [];
      for (const [kind, id] of cards) {
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
        w!.app.openCard(id);
        await until('its panel', () => w!.app.panels.get(id)?.isReady(), 60_000);
        // The card is shown, in this theme's colours.
        await driver.waitFor(inPanel(`body.${bodyClass} #title`));
        const violations: AxeViolation[] = await driver.axe({ frames: WV, selector: 'body' });
        const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        testLog(`    a11y ${look} ${kind}: ${violations.length ? violations.map((v) => `${v.id} (${v.impact})`).join(', ') : 'no violations'}`);
        for (const v of bad) found.push(`${kind}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join('; ')}`);
        // Every field can be seen: its border or its own background differs from the page's.
        for (const f of await driver.styles(inPanel('textarea, input[type="text"], input[type="date"], input[type="time"], select'), ['border-top-color', 'background-color'])) {
          if (!seen(f['border-top-color']!, f.bodyBackground!) && !seen(f['background-color']!, f.bodyBackground!)) {
            found.push(`${kind}: a field with no visible edge (border ${f['border-top-color']}, background ${f['background-color']} on ${f.bodyBackground})`);
          }
        }
        if (kind === 'diff') {
          // The marks read without colour, and each side's lines stand out from the page in this theme (#54).
          assert.match(await driver.text(inPanel('#summary figure.diff pre')), /^ {2}export function total\(items: Item\[\]\) \{\n- {3}return items\.length;\n\+ {3}return items\.reduce/);
          for (const side of ['removed', 'added']) {
            for (const l of await driver.styles(inPanel(`#summary .change.${side}`), ['background-color'])) {
              // The themes' diff colours are tints (Dark Modern's are 20 % opaque): any alpha of 10 % or more.
              const [, , , alpha = 1] = (l['background-color']!.match(/[\d.]+/g) ?? []).map(Number);
              if (alpha < 0.1) found.push(`diff: the ${side} lines have no colour of their own (${l['background-color']} on ${l.bodyBackground})`);
            }
          }
        }
        await driver.screenshot(`a11y-${look}-${kind}`, { selector: WV[0] });
      }
      assert.deepEqual(found, [], `serious or critical violations in ${look}`);
    });

    it(`every action of a card is reached by Tab, with a visible focus ring (${look})`, async () => {
      // Its own theme, so this test also runs alone (--grep).
      await vscode.workspace.getConfiguration('workbench').update('colorTheme', name, vscode.ConfigurationTarget.Global);
      const id = cards.find(([kind]) => kind === 'choice')![1];
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      w!.app.openCard(id);
      await until('its panel', () => w!.app.panels.get(id)?.isReady(), 60_000);
      await driver.click(inPanel(`body.${bodyClass} #title`));
      const reached: string[] = [];
      for (let i = 0; i < 60; i++) {
        await driver.press('Tab');
        const f = await driver.focused(inPanel('body'));
        if (!f.key) break; // past the last control: focus left the panel
        if (f.key === reached.at(-1)) continue; // the next part of a date or time field
        if (reached.includes(f.key)) break; // round again
        reached.push(f.key);
        assert.ok(f.outlineStyle !== 'none' && parseFloat(f.outlineWidth ?? '0') >= 1, `a focus ring on ${f.key} (${f.outlineStyle} ${f.outlineWidth})`);
        if (f.key === 'later-1h') await driver.screenshot(`a11y-${look}-focus`, { selector: WV[0] });
      }
      for (const key of ['go-terminal', 'opt-0', 'field-note', 'theyDecide', 'later-1h', 'later-tonight', 'later-tomorrow', 'later-date', 'later-time', 'later-at', 'handover-open', 'field-message', 'send-message']) {
        assert.ok(reached.includes(key), `${key} is reached by Tab (reached: ${reached.join(', ')})`);
      }
    });
  }
});
