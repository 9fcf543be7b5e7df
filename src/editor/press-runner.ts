// Runs one press of the person through the client core and turns every way it can fail into a
// problem code the UI can explain (shared/problem-messages.ts). The gesture is minted by the
// caller, inside its UI event handler, never here.
import type { Card } from '../api/schemas';
import type { ClientCore, Press, PressAction, SeenCard, UserGesture } from '../sync';
import type { PressResult } from '../sync/press';
import { CONTEXT, setContext } from './context-keys';
import type { Log } from './log';

export interface ActionProblem {
  code: string;
  url?: string;
  retryAfterS?: number;
  /** Our own words for what failed (not shown as the service's). */
  detail?: string;
  /** The service's problem `detail` (hostile: shown as plain text only). */
  serviceDetail?: string;
  /** An `invalid` problem's field errors (hostile: shown as plain text only). */
  fields?: { field: string; reason: string }[];
  /** insufficient_scope: the scope the sign-in lacks. */
  scope?: string;
  /** On version_conflict: the card as it is now, when the core read it. */
  fresh?: Card;
}

export type Outcome = { ok: true; value: PressResult } | { ok: false; problem: ActionProblem };

export async function runPress(
  core: ClientCore,
  gesture: UserGesture,
  seen: SeenCard,
  action: PressAction,
  log: Log,
  /** The person moved on (panel closed): the press stops retrying. `onPress` hands the press out for that too. */
  moveOn?: { signal?: AbortSignal; onPress?: (press: Press) => void },
): Promise<Outcome> {
  let stop: (() => void) | undefined;
  try {
    const press = core.press(gesture, {
      id: seen.id, version: seen.version,
      ...(seen.highStakes ? { highStakes: true } : {}), ...(seen.url ? { url: seen.url } : {}),
    }, action);
    moveOn?.onPress?.(press);
    const signal = moveOn?.signal;
    if (signal) {
      stop = () => press.cancel();
      if (signal.aborted) press.cancel();
      else signal.addEventListener('abort', stop, { once: true });
    }
    const value = await press.send();
    log.info(`${action.type} on ${seen.id} (v${seen.version}) from ${gesture.source}: ok, now v${value.version}`);
    if (action.type === 'answer' || action.type === 'gotIt') setContext(CONTEXT.answered, true);
    return { ok: true, value };
  } catch (e) {
    if (moveOn?.signal?.aborted) {
      log.info(`${action.type} on ${seen.id}: the person moved on; no more retries`);
      return { ok: false, problem: { code: 'cancelled' } };
    }
    const problem = toProblem(e);
    log.info(`${action.type} on ${seen.id} (v${seen.version}) from ${gesture.source}: ${problem.code}`);
    return { ok: false, problem };
  } finally {
    if (stop) moveOn?.signal?.removeEventListener('abort', stop);
  }
}

/** Maps the core's typed errors (src/api/errors.ts, src/auth/errors.ts) to a problem code. */
export function toProblem(e: unknown): ActionProblem {
  const err = e as {
    name?: string; kind?: string; code?: string; url?: string; retryAfterSeconds?: number; error?: string; fresh?: Card; message?: string;
    detail?: string; errors?: { field: string; reason: string }[]; missingScope?: string; description?: string;
  };
  switch (err?.kind) {
    case 'version-conflict': return { code: 'version_conflict', ...(err.fresh ? { fresh: err.fresh } : {}) };
    case 'high-stakes': return { code: 'high_stakes', ...(err.url ? { url: err.url } : {}) };
    case 'problem': return {
      code: err.code ?? 'server_error',
      ...(err.url ? { url: err.url } : {}),
      ...(err.retryAfterSeconds ? { retryAfterS: err.retryAfterSeconds } : {}),
      ...(err.detail ? { serviceDetail: err.detail } : {}),
      ...(err.errors?.length ? { fields: err.errors } : {}),
    };
    case 'oauth':
      if (err.error === 'insufficient_scope') {
        return { code: 'insufficient_scope', ...(err.missingScope ? { scope: err.missingScope } : {}), ...(err.description ? { serviceDetail: err.description } : {}) };
      }
      return { code: 'invalid_token' };
    case 'network': return { code: 'offline' };
    case 'malformed': return { code: 'server_error', detail: err.message ?? '' };
    case 'signed-out': return { code: 'signed_out' };
    case 'not-set-up': return { code: 'signed_out' };
    case 'press-refused': return { code: 'press_refused', detail: err.message ?? '' };
    default:
      if (err?.name === 'AbortError') return { code: 'timeout' };
      return { code: 'unknown', detail: String(err?.message ?? e) };
  }
}
