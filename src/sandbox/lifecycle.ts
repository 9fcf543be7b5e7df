// The card lifecycle: the spec's state table plus DESIGN's timed rules (5 s hold, heard after the
// hold, pickup to done, Later returning at `until`, delegation `freely`/`loop`, the helper seeing
// a card only after `undoUntil`). Routes call these; every refusal is a ProblemError.
import type { Clock, Grant } from './context';
import type { ChangeFeed } from './feed';
import { iso, newId } from './ids';
import { ProblemError } from './problems';
import type { CardRec, ChangeType, HistoryRec, Origin, SandboxState } from './state';
import type { Timeline } from './timeline';

/** DESIGN's hold; a test that is not about the hold may ask for a shorter one (POST /_sandbox/hold). */
export const HOLD_MS = 5_000;
/** A hold the sandbox can be told: whole milliseconds, never longer than DESIGN's. */
export const isHoldMs = (ms: unknown): ms is number => Number.isInteger(ms) && (ms as number) >= 0 && (ms as number) <= HOLD_MS;
export const DONE_LISTED_MS = 30 * 24 * 3_600_000;

export interface NewCardInput {
  agentId?: string;
  kind: string;
  title: string;
  summary?: string;
  options?: { id: string; label: string }[];
  recommendedIds?: string[];
  urgency?: string;
  blocking?: boolean;
  highStakes?: boolean;
  area?: { id: string; name: string };
  multi?: boolean;
  asks?: CardRec['asks'];
  steps?: CardRec['steps'];
  threadId?: string;
  extra?: Record<string, unknown>;
}

export class Cards {
  /** The hold the next answer or hand-over gets (`undoUntil` = now + this). */
  private holdMs = HOLD_MS;

  constructor(
    private readonly store: SandboxState,
    private readonly clock: Clock,
    private readonly timeline: Timeline,
    private readonly feed: ChangeFeed,
    /** `{base_url}` for the `url` of high_stakes problems. */
    private readonly cardLink: (card: CardRec) => string,
  ) {}

  now(): number {
    return this.clock.now();
  }

  state(): SandboxState {
    return this.store;
  }

  /** The hold (ms) the next answer or hand-over gets. */
  hold(): number {
    return this.holdMs;
  }

  /** A shorter hold for what comes next (0..HOLD_MS ms); holds already running keep their end. */
  setHold(ms: number): void {
    if (!isHoldMs(ms)) throw new RangeError(`hold ${ms} ms is not 0..${HOLD_MS}`);
    this.holdMs = ms;
  }

  // ---- reach ---------------------------------------------------------------------------------

  /** A machine sign-in sees cards of assistants on its computer, and notices (they have none). */
  inReach(grant: Grant, card: CardRec): boolean {
    if (grant.reach === 'all') return true;
    if (card.notice) return true;
    const a = card.assistantId ? this.store.assistants.get(card.assistantId) : undefined;
    return a !== undefined && grant.machine !== undefined && a.machineId === grant.machine.id;
  }

  assistantInReach(grant: Grant, assistantId: string): boolean {
    const a = this.store.assistants.get(assistantId);
    if (!a) return false;
    return grant.reach === 'all' || (grant.machine !== undefined && a.machineId === grant.machine.id);
  }

  /** The card, or not_found for one that does not exist or is out of reach (the same answer). */
  find(grant: Grant, id: string): CardRec {
    const card = this.store.cards.get(id);
    if (!card || !this.inReach(grant, card)) throw new ProblemError('not_found', `No card ${id}.`);
    return card;
  }

  // ---- making cards ---------------------------------------------------------------------------

  create(input: NewCardInput, at = this.now()): CardRec {
    const id = newId('req');
    const agent = input.agentId ? this.store.agents.get(input.agentId) : undefined;
    const card: CardRec = {
      id,
      version: 1,
      status: 'pending',
      turn: 'you',
      kind: input.kind,
      title: input.title,
      ...(input.summary !== undefined ? { summary: input.summary } : {}),
      urgency: input.urgency ?? 'today',
      blocking: input.blocking ?? false,
      highStakes: input.highStakes ?? false,
      ...(input.options ? { options: input.options } : {}),
      ...(input.recommendedIds ? { recommendedIds: input.recommendedIds } : {}),
      ...(input.multi !== undefined ? { multi: input.multi } : {}),
      ...(input.asks ? { asks: input.asks } : {}),
      ...(input.steps ? { steps: input.steps } : {}),
      extra: input.extra ?? {},
      threadId: input.threadId ?? id,
      ...(agent ? { agentId: agent.id, assistantId: agent.assistantId } : {}),
      ...(input.area ? { area: input.area } : {}),
      areaVersion: 1,
      rank: ++this.store.rank,
      createdAt: at,
      changedAt: at,
      history: [{ at, type: 'asked', by: 'assistant' }],
      heard: [],
    };
    this.store.cards.set(id, card);
    this.feed.emit('card.created', id, at);
    return card;
  }

  /**
   * The one place a card changes once made: its version rises, changedAt moves, a history line is
   * kept, the record is written to the store, and the change goes to the feed, in the same
   * transaction (the store writes both at its commit).
   */
  touch(card: CardRec, type: ChangeType | null, history: Omit<HistoryRec, 'at'> | null, at = this.now()): void {
    card.version += 1;
    card.changedAt = at;
    if (history) card.history.push({ at, ...history });
    this.store.cards.set(card.id, card);
    if (type) this.feed.emit(type, card.id, at);
  }

  private close(card: CardRec, by: string, at: number, history: Omit<HistoryRec, 'at'> | null): void {
    card.status = 'done';
    card.closedAt = at;
    card.closedBy = by;
    card.pendingMessage = undefined;
    this.timeline.cancel(`hold:${card.id}`);
    this.timeline.cancel(`later:${card.id}`);
    this.touch(card, 'card.closed', history, at);
  }

  /**
   * Timed work after a restart, keyed by card id as when it was scheduled: a hold still running
   * ends at its `undoUntil`, a Later returns at its `until` (at once when that has passed).
   */
  resumeTimers(): void {
    for (const card of this.store.cards.live()) {
      if (card.status === 'answered' && card.answer && !card.answer.heard) {
        this.timeline.schedule(`hold:${card.id}`, card.answer.undoUntil, (at) => this.holdOver(card, at));
      } else if (card.status === 'snoozed' && card.until !== undefined) {
        this.timeline.schedule(`later:${card.id}`, card.until, (due) => this.laterOver(card, due));
      } else if (card.status === 'delegated' && card.delegation && card.delegation.undoUntil > this.now()) {
        this.timeline.schedule(`hold:${card.id}`, card.delegation.undoUntil, (at) => this.handOverHoldOver(card, at));
      }
    }
  }

  private highStakes(card: CardRec): void {
    if (card.highStakes) {
      throw new ProblemError('high_stakes', 'This card can be read here but answered only in the service.', {
        url: this.cardLink(card),
      });
    }
  }

  private waitingOnPerson(card: CardRec): boolean {
    return (card.status === 'pending' || card.status === 'snoozed') && card.turn === 'you';
  }

  // ---- the person's actions -----------------------------------------------------------------

  /** The service's own page may answer a high-stakes card (`allowHighStakes`); apps never can. */
  answer(grant: Grant, origin: Origin, id: string, body: Record<string, unknown>, opts: { allowHighStakes?: boolean } = {}) {
    const card = this.find(grant, id);
    if (!opts.allowHighStakes) this.highStakes(card);
    checkAnswerFits(card, body);
    if (body.askId !== undefined) {
      throw new ProblemError('not_available', 'Answering one ask at a time is not available; send every ask in `answers`.');
    }
    const version = body.version as number;
    if (version < card.areaVersion) {
      throw new ProblemError('area_change', 'The card moved to another area since the version shown; show it again.');
    }
    if (version !== card.version) {
      throw new ProblemError('version_conflict', `The card is at version ${card.version}; show it again and ask the person.`);
    }
    if (card.status === 'delegated') throw new ProblemError('delegated', 'The card is with a helper; take it back first.');
    if (!this.waitingOnPerson(card)) throw new ProblemError('not_waiting', 'The card is not waiting on the person.');

    const now = this.now();
    const undoUntil = now + this.holdMs;
    this.timeline.cancel(`later:${card.id}`);
    card.status = 'answered';
    card.turn = 'agent';
    card.until = undefined;
    card.proposal = undefined;
    card.answer = { body, origin, at: now, undoUntil, heard: false };
    card.answeredFrom = fromOf(origin);
    this.touch(card, 'card.answered', { type: card.kind === 'update' ? 'got-it' : 'answered', by: 'person', origin }, now);
    this.timeline.schedule(`hold:${card.id}`, undoUntil, (at) => this.holdOver(card, at));
    return { id: card.id, status: 'answered', version: card.version, undoUntil: iso(undoUntil) };
  }

  /**
   * The hold ended: the assistant hears the answer; a notice's Got it closes it. Either way it is
   * a change (version, feed): the person's apps and a waiting asker learn it on the feed, with no
   * timer of their own (decisions.md "#53: a hold's end is a change").
   */
  private holdOver(card: CardRec, at: number): void {
    if (card.status !== 'answered' || !card.answer) return;
    card.answer.heard = true;
    if (card.notice) {
      this.close(card, 'person', at, null);
      return;
    }
    card.heard.push({ at, type: 'answer', body: card.answer.body, from: fromOf(card.answer.origin) });
    this.touch(card, 'card.changed', null, at);
  }

  /** A hand-over's hold ended: the helper may see the card now, and take-back is no longer undo. A change too. */
  private handOverHoldOver(card: CardRec, at: number): void {
    if (card.status !== 'delegated' || !card.delegation) return;
    this.touch(card, 'card.changed', null, at);
  }

  /** Ends a hold at once (demo seeding of a done card). */
  finishHoldNow(card: CardRec): void {
    this.timeline.cancel(`hold:${card.id}`);
    if (card.answer) card.answer.undoUntil = Math.min(card.answer.undoUntil, this.now());
    this.holdOver(card, this.now());
  }

  undo(grant: Grant, origin: Origin, id: string) {
    const card = this.find(grant, id);
    this.highStakes(card);
    if (card.status !== 'answered' || !card.answer) throw new ProblemError('not_waiting', 'The card has no answer to undo.');
    if (card.answer.origin.appId !== origin.appId) {
      throw new ProblemError('not_your_answer', 'Only the app that gave the answer can undo it.');
    }
    if (card.answer.heard || this.now() >= card.answer.undoUntil) {
      throw new ProblemError('hold_over', 'The hold is over; the assistant has heard the answer.');
    }
    this.timeline.cancel(`hold:${card.id}`);
    card.status = 'pending';
    card.turn = 'you';
    card.answer = undefined;
    card.answeredFrom = undefined;
    this.touch(card, 'card.changed', { type: 'undone', by: 'person', origin });
    return { id: card.id, status: 'pending', version: card.version };
  }

  message(grant: Grant, origin: Origin, id: string, body: { body: string; via?: string }) {
    const card = this.find(grant, id);
    this.highStakes(card);
    if (card.notice) throw new ProblemError('forbidden', 'A notice has no assistant to write to.');
    if (card.status === 'delegated') throw new ProblemError('delegated', 'The card is with a helper; take it back first.');
    if (!this.waitingOnPerson(card)) throw new ProblemError('not_waiting', 'The card is not waiting on the person.');
    const now = this.now();
    const messageId = newId('msg');
    this.timeline.cancel(`later:${card.id}`);
    card.status = 'pending';
    card.until = undefined;
    card.turn = 'agent';
    card.pendingMessage = { id: messageId, at: now };
    card.heard.push({ at: now, type: 'message', body, from: fromOf(origin) });
    this.touch(card, 'card.changed', { type: 'message', by: 'person', origin, detail: messageId }, now);
    return { id: card.id, messageId, turn: card.turn, version: card.version };
  }

  later(grant: Grant, origin: Origin, id: string, until: () => number, asked?: CardRec['laterAsked']) {
    const card = this.find(grant, id);
    this.highStakes(card);
    if (card.status === 'delegated') throw new ProblemError('delegated', 'The card is with a helper; take it back first.');
    if (!this.waitingOnPerson(card)) throw new ProblemError('not_waiting', 'The card is not waiting on the person.');
    const at = until(); // validated after the state, so a refusal names the state first
    card.status = 'snoozed';
    card.until = at;
    card.laterAsked = asked;
    this.touch(card, 'card.changed', { type: 'later', by: 'person', origin, detail: iso(at) });
    this.timeline.schedule(`later:${card.id}`, at, (due) => this.laterOver(card, due));
    return { id: card.id, status: 'snoozed', until: iso(at), version: card.version };
  }

  /** DESIGN: a snoozed card returns to pending at `until`, in its old place (rank kept). */
  private laterOver(card: CardRec, at: number): void {
    if (card.status !== 'snoozed') return;
    card.status = 'pending';
    card.until = undefined;
    this.touch(card, 'card.changed', { type: 'back', by: 'service', detail: 'Later ended' }, at);
  }

  back(grant: Grant, origin: Origin, id: string) {
    const card = this.find(grant, id);
    this.highStakes(card);
    if (card.status === 'pending' && card.turn === 'you') {
      return { id: card.id, status: 'pending', version: card.version }; // already back
    }
    if (card.status !== 'snoozed') throw new ProblemError('not_waiting', 'The card is not in Later.');
    this.timeline.cancel(`later:${card.id}`);
    card.status = 'pending';
    card.until = undefined;
    this.touch(card, 'card.changed', { type: 'back', by: 'person', origin });
    return { id: card.id, status: 'pending', version: card.version };
  }

  delegate(grant: Grant, origin: Origin, id: string, body: { to: { assistantId: string; agentId?: string }; mode: 'freely' | 'loop'; note?: string }) {
    const card = this.find(grant, id);
    this.highStakes(card);
    if (card.notice) throw new ProblemError('forbidden', 'A notice cannot be handed to an assistant.');
    if (card.status === 'delegated') throw new ProblemError('delegated', 'The card is already with a helper.');
    if (!this.waitingOnPerson(card)) throw new ProblemError('not_waiting', 'The card is not waiting on the person.');
    const target = this.store.assistants.get(body.to.assistantId);
    if (!target || !this.assistantInReach(grant, target.id)) {
      throw new ProblemError('invalid', 'The helper must be one of your assistants in reach.', {
        errors: [{ field: 'to.assistantId', reason: 'no assistant in reach with this id' }],
      });
    }
    if (target.id === card.assistantId) {
      throw new ProblemError('invalid', 'A card cannot be handed to the assistant that asked it.', {
        errors: [{ field: 'to.assistantId', reason: 'is the asking assistant' }],
      });
    }
    if (body.to.agentId !== undefined) {
      const agent = this.store.agents.get(body.to.agentId);
      if (!agent || agent.assistantId !== target.id) {
        throw new ProblemError('invalid', 'The agent is not one of the helper\'s agents.', {
          errors: [{ field: 'to.agentId', reason: 'not an agent of to.assistantId' }],
        });
      }
    }
    const now = this.now();
    const undoUntil = now + this.holdMs;
    this.timeline.cancel(`later:${card.id}`);
    card.status = 'delegated';
    card.turn = 'agent';
    card.until = undefined;
    card.delegation = {
      assistantId: target.id,
      ...(body.to.agentId ? { agentId: body.to.agentId } : {}),
      mode: body.mode,
      ...(body.note !== undefined ? { note: body.note } : {}),
      at: now,
      undoUntil,
      origin,
    };
    this.touch(card, 'card.changed', { type: 'delegated', by: 'person', origin, detail: `${target.name} (${body.mode})` }, now);
    this.timeline.schedule(`hold:${card.id}`, undoUntil, (at) => this.handOverHoldOver(card, at));
    return { id: card.id, status: 'delegated', version: card.version, hears: target.hears, undoUntil: iso(undoUntil) };
  }

  takeBack(grant: Grant, origin: Origin, id: string) {
    const card = this.find(grant, id);
    this.highStakes(card);
    if (card.status !== 'delegated') throw new ProblemError('not_waiting', 'The card is not with a helper.');
    this.timeline.cancel(`hold:${card.id}`);
    card.status = 'pending';
    card.turn = 'you';
    card.delegation = undefined;
    this.touch(card, 'card.changed', { type: 'taken-back', by: 'person', origin });
    return { id: card.id, status: 'pending', version: card.version };
  }

  // ---- the assistants' side (control surface) ------------------------------------------------

  /** The helper sees a delegated card only once its hold is over. */
  helperCanSee(card: CardRec): boolean {
    return card.status === 'delegated' && card.delegation !== undefined && this.now() >= card.delegation.undoUntil;
  }

  helperAnswer(card: CardRec, body: Record<string, unknown>): string | null {
    if (card.status !== 'delegated' || !card.delegation) return 'the card is not with a helper';
    if (!this.helperCanSee(card)) return 'the helper cannot see the card before undoUntil';
    const now = this.now();
    const d = card.delegation;
    const helper = this.store.assistants.get(d.assistantId);
    card.delegation = undefined;
    if (d.mode === 'freely') {
      card.heard.push({ at: now, type: 'helper-answer', body });
      card.status = 'answered';
      card.turn = 'agent';
      card.answeredFrom = { app: helper?.name ?? 'helper', appId: helper?.app ?? 'other' };
      this.touch(card, 'card.answered', { type: 'helper-answered', by: 'helper', detail: helper?.name ?? d.assistantId }, now);
      this.close(card, 'helper', now, null);
    } else {
      card.status = 'pending';
      card.turn = 'you';
      card.proposal = { ...body, helper: { assistantId: d.assistantId, ...(d.agentId ? { agentId: d.agentId } : {}) } };
      this.touch(card, 'card.answered', { type: 'proposal', by: 'helper', detail: helper?.name ?? d.assistantId }, now);
    }
    return null;
  }

  /** The assistant picks the answer (or the words) up: the card is done. */
  pickup(card: CardRec): string | null {
    const heardAnswer = card.status === 'answered' && card.answer?.heard === true;
    const words = card.status === 'pending' && card.turn === 'agent' && card.pendingMessage !== undefined;
    if (!heardAnswer && !words) return 'the assistant has nothing to pick up (no answer past its hold, no words)';
    this.close(card, 'assistant', this.now(), { type: 'picked-up', by: 'assistant' });
    return null;
  }

  withdraw(card: CardRec): string | null {
    if (card.status === 'done') return 'the card is already done';
    this.close(card, 'withdrawn', this.now(), { type: 'withdrawn', by: 'assistant' });
    return null;
  }

  /** Notices: repeats, resolve. */
  repeatNotice(card: CardRec, at: number): void {
    this.touch(card, 'card.changed', null, at);
  }

  resolveNotice(card: CardRec, at: number): void {
    if (card.notice) card.notice.resolvedBy = 'webhook';
    this.close(card, 'webhook', at, { type: 'resolved', by: 'webhook' });
  }

  /** Moves a card to another area (control surface); an answer naming an older version gets area_change. */
  moveArea(card: CardRec, area: { id: string; name: string }): void {
    card.area = area;
    this.touch(card, 'card.changed', { type: 'area', by: 'service', detail: area.name });
    card.areaVersion = card.version;
  }
}

function fromOf(origin: Origin): { app: string; appId: string; machine?: { id: string; name: string } } {
  return { app: origin.appName, appId: origin.appId, ...(origin.machine ? { machine: origin.machine } : {}) };
}

/** Checks that an answer's fields fit the card's kind (DESIGN "Cards"). */
function checkAnswerFits(card: CardRec, body: Record<string, unknown>): void {
  const errors: { field: string; reason: string }[] = [];
  const has = (k: string) => body[k] !== undefined;
  const fields = ['choiceIds', 'approved', 'text', 'note', 'theyDecide', 'answers', 'failedStep', 'askId', 'via'];
  if (card.kind === 'update') {
    for (const f of fields) if (has(f)) errors.push({ field: f, reason: 'a notice takes only `version` (Got it)' });
  } else {
    const answerFields = ['choiceIds', 'approved', 'text', 'theyDecide', 'answers', 'failedStep', 'askId'];
    if (!answerFields.some(has)) {
      errors.push({ field: 'body', reason: 'an answer needs one of choiceIds, approved, text, theyDecide, answers, failedStep' });
    }
    const known = ['choice', 'approval', 'text', 'questions', 'failure'].includes(card.kind);
    if (has('choiceIds') && known) {
      const ids = body.choiceIds as string[];
      const optionIds = new Set((card.options ?? []).map((o) => o.id));
      if (ids.length === 0) errors.push({ field: 'choiceIds', reason: 'must name at least one option' });
      for (const c of ids) if (!optionIds.has(c)) errors.push({ field: 'choiceIds', reason: `no option ${c} on this card` });
      if (ids.length > 1 && card.multi !== true) errors.push({ field: 'choiceIds', reason: 'this card takes one option' });
      if (new Set(ids).size !== ids.length) errors.push({ field: 'choiceIds', reason: 'an option is named twice' });
    }
    if (has('approved') && known && card.kind !== 'approval') {
      errors.push({ field: 'approved', reason: 'only approval cards take approved' });
    }
    if (has('answers') && known) {
      if (card.kind !== 'questions') errors.push({ field: 'answers', reason: 'only questions cards take answers' });
      else {
        const askIds = new Set((card.asks ?? []).map((a) => a.id));
        for (const k of Object.keys(body.answers as object)) if (!askIds.has(k)) errors.push({ field: `answers.${k}`, reason: 'no such ask' });
      }
    }
    if (has('failedStep') && known) {
      const n = body.failedStep as number;
      if (card.kind !== 'failure') errors.push({ field: 'failedStep', reason: 'only failure cards take failedStep' });
      else if (n < 0 || n >= (card.steps?.length ?? 0)) errors.push({ field: 'failedStep', reason: 'not a step index of this card (0-based)' });
    }
  }
  if (errors.length) throw new ProblemError('invalid', errors.map((e) => `${e.field}: ${e.reason}`).join('; '), { errors });
}
