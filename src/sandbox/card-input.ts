// A new card's fields from a request body the route has checked: the control surface's
// POST /_sandbox/cards and the asking surface's POST /_ask/cards read them the same way.
import type { NewCardInput } from './lifecycle';

export function cardInputOf(b: Record<string, unknown>, agentId: string, extra: Record<string, unknown>): NewCardInput {
  return {
    agentId,
    kind: b.kind as string,
    title: b.title as string,
    ...(typeof b.summary === 'string' ? { summary: b.summary } : {}),
    ...(b.options !== undefined ? { options: b.options as { id: string; label: string }[] } : {}),
    ...(Array.isArray(b.recommendedIds) ? { recommendedIds: b.recommendedIds.map(String) } : {}),
    ...(typeof b.urgency === 'string' ? { urgency: b.urgency } : {}),
    ...(typeof b.blocking === 'boolean' ? { blocking: b.blocking } : {}),
    ...(typeof b.highStakes === 'boolean' ? { highStakes: b.highStakes } : {}),
    ...(b.area !== undefined ? { area: b.area as { id: string; name: string } } : {}),
    ...(typeof b.multi === 'boolean' ? { multi: b.multi } : {}),
    ...(Array.isArray(b.asks) ? { asks: b.asks as NewCardInput['asks'] } : {}),
    ...(Array.isArray(b.steps) ? { steps: b.steps as NewCardInput['steps'] } : {}),
    ...(typeof b.threadId === 'string' ? { threadId: b.threadId } : {}),
    extra,
  };
}
