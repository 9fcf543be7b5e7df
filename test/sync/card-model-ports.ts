// A CardModel for unit tests with every port given, wired as core-parts.ts wires them minus the
// session: reads go straight to the api, no budget wait, no sync signal, and this computer's
// clock with no skew. A test that needs one port its own way passes it.
import { CardModel, type CardModelOptions } from '../../src/sync/card-model';
import { realHoldClock } from '../kit/clocks';

export function testCardModel(o: Pick<CardModelOptions, 'api' | 'logger'> & Partial<CardModelOptions>): CardModel {
  const model: CardModel = new CardModel({
    beforeRead: async () => undefined,
    syncSignal: () => undefined,
    readCard: (id, r) => o.api.getCard(id, r),
    refresh: () => model.fullRead(),
    holdClock: realHoldClock,
    ...o,
  });
  return model;
}
