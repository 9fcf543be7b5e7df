// The card panel's one live region (Playwright under code-server): a screen reader hears a
// status change from one place, once. The panel's document holds exactly one live region
// (aria-live, an implicitly live role, <output>), before and after a press re-renders it, and each
// status of a press (sending, answered, the assistant hears it) is said there once: never twice,
// never from a second region.
import * as assert from 'node:assert/strict';
import { newCard, until } from './cards-helpers';
import { driver } from './helpers/driver';
import { heardOnce, inPanel, openFromTree, panelWorld } from './helpers/card-panel-ui';
import { onOldest } from './oldest-vscode';

describe('card panel: one live region, each status said once (Playwright)', function () {
  this.timeout(180_000);
  // A signed-in sandbox in the default scope, a short hold: no test here is about the hold.
  const world = panelWorld();

  it('the panel has exactly one live region, and a press\'s status changes are each said there once', async () => {
    const c = await newCard(world(), { kind: 'choice', title: 'Which queue for the jobs?', options: [{ id: 'r', label: 'Redis' }, { id: 's', label: 'SQS' }] });
    await openFromTree(world(), c.id, 'Which queue for the jobs?');
    const body = inPanel('body');
    const before = await driver.liveRegions(body);
    assert.equal(before.regions.length, 1, `live regions: ${JSON.stringify(before.regions)}`);
    assert.equal(before.regions[0]!.text, '', 'nothing said before anything happened');

    await driver.click(inPanel('role=button[name=/you decide/i]'));
    await heardOnce(world(), c.id);
    // The press is over: the region holds the panel's last status (the hold is over, the assistant hears it).
    const last = await until('the status after the hold', async () => {
      const now = await driver.liveRegions(body);
      const shown = await driver.text(inPanel('#status'));
      const said = now.regions[0]?.text ?? '';
      return said && shown.includes(said) && !/Sending/.test(said) ? now : undefined;
    }, 30_000);
    assert.equal(last.regions.length, 1, `live regions after the press: ${JSON.stringify(last.regions)}`);
    const said = last.said.map((s) => s.text).filter((t) => t.trim());
    assert.ok(said.length >= 2, `said: ${JSON.stringify(said)}`);
    assert.deepEqual(last.said.map((s) => s.region).filter((r, i, a) => a.indexOf(r) === i), ['live'], 'all from the one region');
    // Each status once: no text said twice (a re-render, the hold's countdown or a card event repeating it).
    const twice = said.filter((t, i) => said.indexOf(t) !== i);
    assert.deepEqual(twice, [], `said: ${JSON.stringify(said)}`);
    assert.equal(said.filter((t) => t === last.regions[0]!.text).length, 1, 'the last status said once');
    await driver.screenshot(`panel-live-region-after-press${onOldest() ? '-1.93' : ''}`, inPanel('body'));
  });
});
