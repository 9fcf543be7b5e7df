// Sends the person's presses: the one place that calls the action table's requests (the client's
// card writes), and only for a Press made from a UserGesture. The version check is made here, once.
import type { ApiClient } from '../api/client';
import { ApiProblemError, HighStakesError, NetworkError, VersionConflictError } from '../api/errors';
import type { Clock } from '../api/runtime';
import { rowOf } from './actions-table';
import type { CardModel } from './card-model';
import { Press } from './press';
import type { PressAction, PressResult, SeenCard, SendContext, UserGesture } from './press';
import type { CardReads } from './reads';

export interface PressSendingOptions {
  baseUrl: string;
  api: ApiClient;
  model: CardModel;
  reads: CardReads;
  clock: Clock;
  /** The service answered a press: the connection state. */
  onSent: () => void;
  /** A press could not reach the service: the connection state. */
  onNetworkFailure: (e: NetworkError) => void;
}

export class PressSending {
  constructor(private readonly o: PressSendingOptions) {}

  /** A press of a card the person saw; sent by `press.send()`. */
  press(gesture: UserGesture, card: SeenCard, action: PressAction): Press {
    // The model's word counts too: a caller that left the flag out still cannot act on it.
    const held = this.o.model.get(card.id);
    const heldUrl = held && 'url' in held ? held.url : undefined;
    const seen = held?.highStakes && !card.highStakes ? { ...card, highStakes: true, url: card.url ?? heldUrl } : card;
    return Press.create(gesture, seen, action, (c, a, ctx) => this.send(c, a, ctx), this.o.clock);
  }

  private async send(card: SeenCard, action: PressAction, ctx: SendContext): Promise<PressResult> {
    const { api, model, reads } = this.o;
    // The reads of this card that follow are the person's, not background work.
    reads.pressed(card.id);
    // The service checks an answer's version; every action is checked here too, before anything
    // is sent, so nothing acts on a version the model already knows the person has not seen.
    const held = model.get(card.id);
    if (held && held.version > card.version) {
      const fresh = await reads.read(card.id, { byPerson: true }).catch(() => undefined);
      throw new VersionConflictError(card.id, fresh, new ApiProblemError({
        type: `${this.o.baseUrl}/docs/api/errors#version_conflict`, title: 'The card changed', status: 409,
        code: 'version_conflict', detail: `The card is at version ${held.version}; you saw ${card.version}.`, requestId: 'rid_client',
      }, `${this.o.baseUrl}/v1/cards/${card.id}`));
    }
    const w = { idempotencyKey: ctx.idempotencyKey, stillWaiting: ctx.stillWaiting, signal: ctx.signal };
    try {
      // The action's one request, as its row in the action table sends it.
      const result = await rowOf(action.type).send(api, card, action, w);
      this.o.onSent();
      return result;
    } catch (e) {
      if (e instanceof ApiProblemError && e.code === 'version_conflict') {
        const fresh = await reads.read(card.id, { byPerson: true }).catch(() => undefined);
        if (fresh) model.upsert(fresh);
        throw new VersionConflictError(card.id, fresh, e);
      }
      if (e instanceof ApiProblemError && e.code === 'high_stakes') throw new HighStakesError(card.id, e.url);
      if (e instanceof NetworkError) this.o.onNetworkFailure(e);
      throw e;
    }
  }
}
