// A CardModel for unit tests with every port given, wired as core-parts.ts wires them minus the
// session: lists and reads by id go straight to the one api, no budget wait, no sync signal, and
// this computer's clock with no skew. A test that needs one port its own way passes it.
import type { ApiClient } from '../../src/api/client';
import { CardListReader } from '../../src/sync/card-lists';
import { CardModel, type CardModelOptions } from '../../src/sync/card-model';
import { realHoldClock } from '../kit/clocks';

export function testCardModel(o: { api: ApiClient } & Pick<CardModelOptions, 'logger'> & Partial<CardModelOptions>): CardModel {
  const { api, ...ports } = o;
  const model: CardModel = new CardModel({
    lists: new CardListReader({ api, beforeRead: async () => undefined, syncSignal: () => undefined }),
    syncSignal: () => undefined,
    readCard: (id, r) => api.getCard(id, r),
    refresh: () => model.fullRead(),
    holdClock: realHoldClock,
    ...ports,
  });
  return model;
}
