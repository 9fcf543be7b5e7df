// One lifetime loop (#39): the editor's DisposableBase owns the client core's Lifetime
// (sync/lifetime.ts), so both layers dispose the same way: last registered first, every part even
// when one throws, a part registered after the end disposed at once, and `dispose` synchronous.
import { strict as assert } from 'node:assert';
import { DisposableBase, DisposableStore } from '../../src/editor/base/disposable';
import { Lifetime } from '../../src/sync';

class Owner extends DisposableBase {
  own<T extends { dispose(): unknown }>(d: T): T { return this._register(d); }
  get ended(): boolean { return this.isDisposed; }
}

describe('one lifetime loop (#39): the editor\'s DisposableBase is the core\'s Lifetime', () => {
  for (const [name, make] of [['DisposableBase', () => new Owner()], ['DisposableStore', () => { const s = new DisposableStore(); return Object.assign(s, { own: s.add.bind(s) }); }], ['Lifetime', () => { const l = new Lifetime(); return Object.assign(l, { own: l.add.bind(l) }); }]] as const) {
    it(`${name}: last registered first, on past a throw, synchronous, once`, () => {
      const o = make();
      const order: string[] = [];
      o.own({ dispose: () => { order.push('a'); } });
      o.own({ dispose: () => { order.push('b'); throw new Error('boom'); } });
      o.own({ dispose: async () => { order.push('c'); } });
      assert.equal(o.dispose(), undefined, 'dispose returns nothing: it is synchronous');
      assert.deepEqual(order, ['c', 'b', 'a']);
      o.dispose();
      assert.deepEqual(order, ['c', 'b', 'a'], 'a second dispose does nothing');
      o.own({ dispose: () => { order.push('late'); } });
      assert.deepEqual(order, ['c', 'b', 'a', 'late'], 'registered after the end: disposed at once');
    });
  }

  it('the editor\'s base holds a Lifetime, not a loop of its own', () => {
    const o = new Owner();
    const held = Object.values(o).filter((v) => v instanceof Lifetime);
    assert.equal(held.length, 1);
    assert.equal(o.ended, false);
    o.dispose();
    assert.equal(o.ended, true);
    assert.equal((held[0] as Lifetime).isDisposed, true);
  });
});
