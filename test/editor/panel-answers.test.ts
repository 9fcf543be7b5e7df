// Answers through the card panel as a person gives them (Playwright under code-server), found by
// role, accessible name and visible text so the tests outlive a rewrite of the webview's markup:
// "You decide", the answer that hands the decision back to the assistant; Esc and an input method.
// Each checks what the assistant heard after the undo hold, at the sandbox.
import * as assert from 'node:assert/strict';
import { newCard, until } from './cards-helpers';
import { driver } from './helpers/driver';
import { heardOnce, inPanel, openFromTree, panelWorld } from './helpers/card-panel-ui';
import { draftKey } from '../../src/editor/panel/panel-memory';

describe('answers through the card panel, by role and text (Playwright)', function () {
  this.timeout(180_000);
  // A signed-in sandbox in the default scope, a short hold: no test here is about the hold.
  const world = panelWorld();

  it('"You decide" hands the decision back to the assistant', async () => {
    const c = await newCard(world(), { kind: 'choice', title: 'Tabs or spaces?', options: [{ id: 't', label: 'Tabs' }, { id: 's', label: 'Spaces' }] });
    await openFromTree(world(), c.id, 'Tabs or spaces?');
    await driver.click(inPanel('role=button[name=/you decide/i]'));
    const h = await heardOnce(world(), c.id);
    assert.equal(h.body.theyDecide, true);
    assert.equal(h.body.choiceIds, undefined);
  });

  it('an approval\'s "Always allow" (#54): a button with the rule and the settings file whole, after the warning about them; pressed it approves with that option', async () => {
    // The rule is the asker's: a direction override in it is a mark, and the warning comes first.
    const label = 'Always allow: Bash(npm run \u202Edliub) in /home/dev/shop/.claude/settings.local.json';
    const c = await newCard(world(), { kind: 'approval', title: 'Claude Code asks to run: npm run build', options: [{ id: 'always-allow-1', label }] });
    await openFromTree(world(), c.id, 'Claude Code asks to run: npm run build');
    assert.equal(await driver.text(inPanel('.approval-options button')), label.replace('\u202E', '[U+202E]'), 'the whole label, as text');
    assert.equal(await driver.count(inPanel('#hidden-chars ~ .approval-options ~ .actions [data-key="approve"]')), 1, 'warning, Always allow, then Approve');
    await driver.screenshot('panel-always-allow');
    await driver.click(inPanel('.approval-options button'));
    const h = await heardOnce(world(), c.id);
    assert.deepEqual([h.body.approved, h.body.choiceIds], [true, ['always-allow-1']]);
  });

  it('Esc while an input method composes keeps the panel (and what is typed); Esc after it closes the panel', async () => {
    const c = await newCard(world(), { kind: 'text', title: 'Answer in Japanese' });
    await openFromTree(world(), c.id, 'Answer in Japanese');
    const field = inPanel('role=textbox[name=/your answer/i]');
    await driver.click(field);
    // The Esc an IME sends to cancel its conversion (keydown with isComposing).
    await driver.dispatch(field, 'keydown', { key: 'Escape', code: 'Escape', isComposing: true, bubbles: true });
    // Then typing goes on: its draft reaches the extension after any close the Esc had sent.
    await driver.type('すし');
    const draft = () => world().app.ctx.workspaceState.get<{ text?: string }>(draftKey(c.id))?.text;
    await until('the draft at the extension', () => draft() === 'すし' || undefined);
    assert.ok(world().app.panels.get(c.id), 'the panel is still open');
    await driver.press('Escape', field);
    await until('the panel closed by Esc', () => !world().app.panels.get(c.id) || undefined);
    assert.equal(draft(), 'すし', 'the draft is kept for the next opening');
  });
});
