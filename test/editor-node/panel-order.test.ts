// The order a card panel keeps (src/editor/panel/panel-order.ts): one read at a time, the changes
// told during a read read once more after it; a press names only a version shown; one press at a time.
import { strict as assert } from 'node:assert';
import { PanelOrder } from '../../src/editor/panel/panel-order';

describe('PanelOrder: one card panel keeps its order', () => {
  it('reads one at a time, and once more after a read that changes came during', async () => {
    const order = new PanelOrder();
    const started: string[] = [];
    let finish!: () => void;
    const read = (name: string) => () => { started.push(name); return new Promise<void>((r) => { finish = r; }); };
    let again = 0;
    order.queueRead(read('first'), () => { again++; order.queueRead(read('again'), () => again++); });
    const first = order.readUnderWay;
    assert.ok(first, 'a read is under way');
    order.queueRead(read('second'), () => undefined);
    order.queueRead(read('third'), () => undefined);
    assert.deepEqual(started, ['first'], 'no second read while one is under way');
    finish();
    await first;
    await Promise.resolve();
    assert.equal(again, 1, 'once more, however many changes came');
    assert.deepEqual(started, ['first', 'again']);
    finish();
    await order.readUnderWay;
    await Promise.resolve();
    assert.equal(again, 1, 'nothing came during the last read: no more');
    assert.equal(order.readUnderWay, undefined);
  });

  it('a press names only a version shown, one press at a time', () => {
    const order = new PanelOrder();
    assert.equal(order.mayName(3), false);
    order.shown(3);
    assert.equal(order.mayName(3), true);
    assert.equal(order.mayName(4), false);
    assert.equal(order.pressOnItsWay, false);
    order.startPress();
    assert.equal(order.pressOnItsWay, true);
    order.endPress();
    assert.equal(order.pressOnItsWay, false);
  });
});
