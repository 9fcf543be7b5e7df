// The card panel's one live region (Playwright under code-server): a screen reader hears a
// status change from one place, once. The panel's document holds exactly one live region
// (aria-live, an implicitly live role, <output>), before and after a press re-renders it, and each
// status of a press (sending, answered, the assistant hears it) is said there once: never twice,
// never from a second region. A refused press too: its refusal and what follows it (the card's
// new version, or its going) are one status, said once.
import * as assert from 'node:assert/strict';
import { newCard, until } from './cards-helpers';
import { quietFor } from '../kit/until';
import { driver } from './helpers/driver';
import { heardOnce, holdFeedBack, inPanel, openFromTree, panelWorld } from './helpers/card-panel-ui';
import { onOldest } from './oldest-vscode';

/**
 * What the panel's live region said from the press on, once the press is over (nothing on its way)
 * and `settled` shows: each text once, from the one region; a second after, nothing more.
 */
async function saidAfterPress(settled: string): Promise<string[]> {
  const body = inPanel('body');
  await driver.waitFor(inPanel(settled, 30_000));
  await until('the press over', async () => !/Sending/.test(await driver.text(body)) || undefined, 30_000);
  // A second status would follow at once (the host's next message): a second is plenty.
  await quietFor('no second status after the press', 1_000);
  const now = await driver.liveRegions(body);
  assert.equal(now.regions.length, 1, `live regions: ${JSON.stringify(now.regions)}`);
  assert.deepEqual(now.said.map((s) => s.region).filter((r, i, a) => a.indexOf(r) === i), ['live'], 'all from the one region');
  return now.said.map((s) => s.text).filter((t) => t.trim());
}

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
  it('a press refused because the card changed says so once: the new version, not the refusal and then the new version', async () => {
    const w = world();
    const hook = await w.sb.control<{ url: string }>('POST', '/_sandbox/webhooks', { name: 'Uptime', area: { id: 'prj_web', name: 'Web' } });
    const send = (body: unknown) => fetch(hook.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const { cardId } = await (await send({ title: 'Checkout is down', severity: 'critical', dedupeKey: 'co' })).json() as { cardId: string };
    try {
      await openFromTree(w, cardId, 'Checkout is down');
      await driver.liveRegions(inPanel('body')); // what the region says is recorded from here
      await holdFeedBack(w);
      // The same failure reported again while the person looks: the card's version rises unseen.
      await send({ title: 'Checkout is down', severity: 'critical', dedupeKey: 'co' });
      await driver.click(inPanel('button[data-key="gotit"]'));
      const said = await saidAfterPress('.banner.changed');
      // Sending…, then the one status: the card changed (its new version); said once, in one wording.
      assert.equal(said.length, 2, `said: ${JSON.stringify(said)}`);
      assert.match(said[0]!, /Sending/);
      assert.match(said[1]!, /changed after you saw it/);
      assert.equal(said[1], await driver.text(inPanel('.banner.changed')), 'what is said is the banner that stands');
    } finally {
      await w.sb.control('DELETE', '/_sandbox/faults');
    }
  });

  it('a press on a card found gone says so once: its going, not the refusal and then its going', async () => {
    const w = world();
    const c = await newCard(w, { kind: 'choice', title: 'Which region?', options: [{ id: 'e', label: 'eu-west' }, { id: 'u', label: 'us-east' }] });
    try {
      await openFromTree(w, c.id, 'Which region?');
      await driver.liveRegions(inPanel('body')); // what the region says is recorded from here
      // The card left this sign-in's reach while the person looked: the answer and the read after it find nothing.
      await w.sb.control('POST', '/_sandbox/faults', { path: `/v1/cards/${c.id}/answer`, method: 'POST', status: 404, code: 'not_found', times: 1 });
      await w.sb.control('POST', '/_sandbox/faults', { path: `/v1/cards/${c.id}`, method: 'GET', status: 404, code: 'not_found', times: 5 });
      await driver.click(inPanel('role=radio[name=/eu-west/]'));
      await driver.click(inPanel('role=button[name=/^answer$/i]'));
      const said = await saidAfterPress('text=/no longer exists/');
      assert.equal(said.length, 2, `said: ${JSON.stringify(said)}`);
      assert.match(said[0]!, /Sending/);
      assert.match(said[1]!, /no longer exists/);
    } finally {
      await w.sb.control('DELETE', '/_sandbox/faults');
    }
  });
});
