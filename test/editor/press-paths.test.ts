// One press, one path: the same answer, undo, Later and hand-over, pressed in the card panel, in a
// notification and through the command palette, as a person presses them (Playwright under
// code-server). Each place calls the core's one press path (ClientCore.act), so at the moment the
// place says its result the model already holds the card the service made, the tree has moved it
// in one update (one group change, never a flip back and forth), and the place says the same
// "hears it in N s" as the hold the model keeps (one clock for all of them). A notification offers
// answers and the Undo after one; Later and hand-over it leaves to the panel (it offers Open).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { Group } from '../../src/sync';
import { atThisWindow, awayFromThisWindow, heard, newCard, sandboxCard, signInApproved, unwire, until, wire, type World } from './cards-helpers';
import { driver, driverAvailable } from './helpers/driver';
import { pick } from './helpers/quick-pick';
import { inPanel, openFromTree } from './helpers/card-panel-ui';
import { notificationButton, notificationText } from './helpers/notifications';
import { intoWorkspaceScope } from './helpers/workspace-scope';
import { testLog } from './helpers/test-log';

type Place = 'panel' | 'notification' | 'palette';
type Action = 'answer' | 'undo' | 'later' | 'handOver';

/** What the model holds after each action, the same whichever place pressed it. */
const AFTER: Record<Action, { status: string; group: Group; hold: boolean }> = {
  answer: { status: 'answered', group: 'agent', hold: true },
  undo: { status: 'pending', group: 'pending', hold: false },
  later: { status: 'snoozed', group: 'snoozed', hold: false },
  handOver: { status: 'delegated', group: 'delegated', hold: true },
};

const ROWS: [Place, Action][] = [
  ['panel', 'answer'], ['notification', 'answer'], ['palette', 'answer'],
  ['panel', 'undo'], ['notification', 'undo'], ['palette', 'undo'],
  ['panel', 'later'], ['palette', 'later'],
  ['panel', 'handOver'], ['palette', 'handOver'],
];

const HEARS = /hears it in (\d+) s/;

describe('one press, one path: panel, notification and palette leave the same model (Playwright)', function () {
  this.timeout(240_000);
  let w: World;
  /** The default scope a person gets (workspace): a live session of the card's assistant in this window's terminal. */
  let workspaceScope: vscode.Disposable | undefined;
  let helperName = '';
  const core = () => w.app.live!.core;
  const config = () => vscode.workspace.getConfiguration('assistantCards');

  before(async function () {
    if (!driverAvailable()) this.skip();
    w = await wire();
    await signInApproved(w);
    workspaceScope = await intoWorkspaceScope(w);
    helperName = 'Path helper';
    const helper = await w.sb.control<{ id: string }>('POST', '/_sandbox/assistants', { name: helperName, app: 'codex', machineId: w.machineId });
    await w.sb.control('POST', '/_sandbox/agents', { assistantId: helper.id, name: 'helper main' });
  });
  afterEach(async () => {
    await config().update('notify', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('notifications.hideList');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await awayFromThisWindow().catch(() => undefined);
  });
  after(async () => {
    workspaceScope?.dispose();
    await unwire(w);
  });

  /**
   * Runs an Assistant Cards command as the palette runs it (no argument: the person picks), then
   * walks its quick picks, each typed then chosen. The command is started by id, not typed into
   * F1: the palette's "recently used" would reorder the commands for the tests after this one.
   */
  async function palette(command: string, picks: string[]): Promise<void> {
    await vscode.commands.executeCommand('notifications.hideList');
    void vscode.commands.executeCommand(`assistantCards.${command}`);
    for (const row of picks) await pick(row);
  }

  /** Each place's way to press each action it offers; resolves to the words it says for the result. */
  const press: Record<Place, Partial<Record<Action, (id: string, title: string) => Promise<string>>>> = {
    panel: {
      answer: async (id, title) => {
        await openFromTree(w, id, title);
        await driver.click(inPanel('label.option:has-text("Alpha")'));
        await driver.click(inPanel('#answer'));
        return driver.text(inPanel('#countdown')); // one read that waits: it shows for the hold only
      },
      undo: async () => {
        await driver.click(inPanel('button[data-key="undo"]'));
        await driver.waitFor(inPanel('.notice:has-text("Undone")'));
        return driver.text(inPanel('.notice:has-text("Undone")'));
      },
      later: async (id, title) => {
        await openFromTree(w, id, title);
        await driver.click(inPanel('button:has-text("In 1 hour")'));
        await driver.waitFor(inPanel('button:has-text("Back now")'));
        return driver.text(inPanel('.notice'));
      },
      handOver: async (id, title) => {
        await openFromTree(w, id, title);
        await driver.click(inPanel('button:has-text("Hand over")'));
        await driver.waitFor(inPanel('select[data-key="handover-assistant"]'));
        for (let i = 0; i < 10; i++) {
          const picked = await driver.text(inPanel('select[data-key="handover-assistant"] option:checked'));
          if (picked.startsWith(helperName)) break;
          await driver.press('ArrowDown', inPanel('select[data-key="handover-assistant"]'));
        }
        await driver.click(inPanel('button[data-key="handover-send"]'));
        await driver.waitFor(inPanel('button:has-text("Take back")'));
        return driver.text(inPanel('#countdown')); // one read that waits: it shows for the hold only
      },
    },
    notification: {
      answer: async (_id, title) => {
        await notificationText(title);
        await driver.click(notificationButton(title, 'Alpha'));
        return notificationText('with Alpha. The assistant hears it in');
      },
      undo: async () => {
        await driver.click(notificationButton('with Alpha. The assistant hears it in', 'Undo'));
        return notificationText('undone; the card waits on you again');
      },
    },
    palette: {
      answer: async (_id, title) => {
        await palette('answer', [title, 'Alpha']);
        return notificationText(`answered "${title}". The assistant hears it in`);
      },
      undo: async (_id, title) => {
        await palette('undo', [title]);
        return notificationText('undone; the card waits on you again');
      },
      later: async (_id, title) => {
        await palette('later', [title, 'In 1 hour']);
        return notificationText('in Later until');
      },
      handOver: async (_id, title) => {
        await palette('handOver', [title, helperName, 'Any agent', 'Freely']);
        // The note is optional: Enter leaves it empty (once its box, not the last pick, shows).
        await driver.waitFor({ selector: '.quick-input-widget:has-text("Note for the helper")', timeout: 30_000 });
        await driver.press('Enter');
        return notificationText(`Handed over: "${title}"`);
      },
    },
  };

  /** Counts the card's moves between groups of the tree, as the model tells the views. */
  function watchMoves(id: string): { moves: () => Group[]; dispose(): void } {
    let last = core().cards.groupOf(id);
    const moves: Group[] = [];
    const sub = core().cards.changed(({ card }) => {
      if (card.id !== id) return;
      const now = core().cards.groupOf(id);
      if (now && now !== last) { moves.push(now); last = now; }
    });
    return { moves: () => [...moves], dispose: () => sub.dispose() };
  }

  /**
   * An undo row needs the real 5 s hold still running when its undo lands. On a loaded machine
   * (1.93, load 8-14 on two cores: #36) answering from a place, reading what it said and walking
   * to the undo took longer than the hold, and the undo was refused (the wait for "undone" ran
   * out at 60 s). That is the state looked for: the assistant heard the answer, so the hold ran out
   * before the undo landed. Then the row runs again on a new card, at most three times, each
   * miss named in the log; any other failure fails at once.
   */
  async function holdRanOut(id: string | undefined): Promise<boolean> {
    return id !== undefined && (await heard(w, id)).length > 0;
  }

  for (const [place, action] of ROWS) {
    it(`${action} from the ${place}: the model and the tree move at once, in one update, and the hold is the model's`, async () => {
      const tries = action === 'undo' ? 3 : 1;
      for (let attempt = 1; ; attempt++) {
        let id: string | undefined;
        try {
          await row(place, action, attempt, (cardId) => { id = cardId; });
          return;
        } catch (e) {
          if (attempt >= tries || !(await holdRanOut(id))) throw e;
          testLog(`    (${action} from the ${place}, try ${attempt} of ${tries}: the 5 s hold ran out before the undo landed; again on a new card. ${(e as Error).message.split('\n')[0]})`);
          await vscode.commands.executeCommand('notifications.clearAll');
          await vscode.commands.executeCommand('workbench.action.closeAllEditors');
          await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
        }
      }
    });
  }

  async function row(place: Place, action: Action, attempt: number, made: (id: string) => void): Promise<void> {
    {
      // Only the place under test speaks: other places' notifications would cover the centre.
      await config().update('notify', place === 'notification' ? 'blocking' : 'off', vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('notifications.clearAll');
      if (place === 'notification') await atThisWindow();
      await until('no card notification showing', () => !w.app.live!.notifier.isShowing());
      const title = `Path ${action} from the ${place}${attempt > 1 ? ` (try ${attempt})` : ''}`;
      const c = await newCard(w, { kind: 'choice', title, blocking: true, options: [{ id: 'a', label: 'Alpha' }, { id: 'b', label: 'Beta' }] });
      made(c.id);
      await until('the card in the model', () => core().cards.get(c.id));
      // Undo needs an answer on hold first, from the same place.
      if (action === 'undo') {
        await press[place].answer!(c.id, title);
        await until('answered in the model', () => core().cards.get(c.id)?.status === 'answered' || undefined);
      }
      const watch = watchMoves(c.id);
      try {
        const pressedAt = Date.now();
        const said = await press[place][action]!(c.id, title);
        const at = Date.now();
        // The moment the place says the result, the model holds it: no read was awaited for it.
        const held = core().cards.get(c.id);
        assert.ok(held, 'the card is in the model');
        assert.equal(held.status, AFTER[action].status, `status after ${action} from the ${place}`);
        assert.equal(core().cards.groupOf(c.id), AFTER[action].group, 'the tree shows it in its new group');
        assert.deepEqual(watch.moves(), [AFTER[action].group], 'one move, in one update');
        const service = await sandboxCard(w, c.id);
        assert.equal(held.version, service.version, 'the version the service made');
        const hold = core().cards.holdUntil(c.id);
        if (AFTER[action].hold) {
          assert.ok(hold !== undefined && hold > at, 'a hold runs, on this computer\'s clock');
          const n = Number(HEARS.exec(said)?.[1] ?? NaN);
          if (!Number.isNaN(n)) {
            // Said at some moment between the press and its words read back: what the hold had
            // left then lies between these two (at a load of 25 the read took over a second).
            const leftAtPress = Math.ceil((hold - pressedAt) / 1000);
            const leftAtRead = Math.ceil((hold - at) / 1000);
            assert.ok(n >= leftAtRead - 1 && n <= leftAtPress + 1, `"${said}" says ${n} s; the model's hold had ${leftAtPress} s left at the press, ${leftAtRead} s when the words were read`);
          } else {
            assert.equal(action, 'handOver', `"${said}" says when the assistant hears it`);
          }
        } else {
          assert.equal(hold, undefined, 'no hold runs');
        }
        // And it stays there: the read that follows and the hold's end move it no further back.
        // Waited for as states: the service received that read (after the hold's end when one runs).
        const since = hold ?? pressedAt;
        await until(`a read of the card after ${hold ? 'the hold\'s end' : 'the press'}`, async () => {
          const { received } = await w.sb.control<{ received: { method: string; url: string; at: string }[] }>('GET', '/_sandbox/received');
          return received.some((r) => r.method === 'GET' && r.url.split('?')[0] === `/v1/cards/${c.id}` && Date.parse(r.at) >= since) || undefined;
        }, 30_000);
        // And the model has taken what that read said: a read now joins it (reads by id are
        // shared while one is on its way) or comes after it, and resolves once the model holds it.
        await core().cards.read(c.id);
        assert.deepEqual(watch.moves().slice(0, 1), [AFTER[action].group]);
        assert.ok(!watch.moves().slice(1).includes(action === 'undo' ? 'agent' : 'pending'), `no flip back: ${watch.moves().join(' -> ')}`);
      } finally {
        watch.dispose();
      }
    }
  }
});
