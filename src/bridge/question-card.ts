// Claude Code's question tool (AskUserQuestion) as a card. Its PermissionRequest carries the
// questions; a hook that allows it with `updatedInput.answers` ({question text: chosen label})
// answers them (docs/cli-hooks.md, measured in the interactive CLI). One question is a `choice`
// (several labels when it allows many), more are a `questions` card. Pure.
import type { AskedCard, Heard } from '../api/ask-schemas';
import { APP_NAMES } from './permission-card';
import type { Decision } from './clis/adapter';
import { say } from './words';

interface Question { question: string; header?: string; options: { label: string; description?: string }[]; multiSelect: boolean }

/** The questions of an AskUserQuestion input, or undefined when it is not that shape. */
export function questionsOf(input: unknown): Question[] | undefined {
  const qs = (input as { questions?: unknown } | undefined)?.questions;
  if (!Array.isArray(qs) || qs.length === 0 || qs.length > 20) return undefined;
  const out: Question[] = [];
  for (const q of qs as Record<string, unknown>[]) {
    if (!q || typeof q.question !== 'string' || !Array.isArray(q.options)) return undefined;
    const options = (q.options as Record<string, unknown>[]).filter((o) => o && typeof o.label === 'string')
      .map((o) => ({ label: o.label as string, ...(typeof o.description === 'string' ? { description: o.description } : {}) }));
    if (options.length === 0) return undefined;
    out.push({ question: q.question, ...(typeof q.header === 'string' ? { header: q.header } : {}), options, multiSelect: q.multiSelect === true });
  }
  return out;
}

const optionId = (i: number) => `o${i}`;
const askId = (i: number) => `q${i}`;

/** What each option means, for the summary: the labels alone may not say it. */
function described(qs: Question[]): string {
  return qs.map((q) => [`${q.header ? `${q.header}: ` : ''}${q.question}`, ...q.options.map((o) => `- ${o.label}${o.description ? `: ${o.description}` : ''}`)].join('\n')).join('\n\n');
}

export function questionCard(app: string, qs: Question[]): AskedCard {
  const who = APP_NAMES[app] ?? app;
  const options = (q: Question) => q.options.map((o, i) => ({ id: optionId(i), label: o.label }));
  if (qs.length === 1) {
    const q = qs[0]!;
    return {
      kind: 'choice', title: q.question, summary: `${say('asks', who)}\n\n${described(qs)}`, options: options(q),
      ...(q.multiSelect ? { multi: true } : {}), blocking: true, urgency: 'now', reason: 'question',
    };
  }
  return {
    kind: 'questions', title: say('asksQuestions', who, qs.length), summary: described(qs),
    asks: qs.map((q, i) => ({ id: askId(i), title: q.question, options: options(q) })), blocking: true, urgency: 'now', reason: 'question',
  };
}

/** The person's answer as the tool's answers; words written on the card go to the model instead. */
export function questionDecision(qs: Question[], input: Record<string, unknown>, heard: readonly Heard[]): Decision {
  const label = (q: Question, id: unknown) => (typeof id === 'string' ? q.options[Number(id.slice(1))]?.label ?? id : undefined);
  for (const h of heard) {
    const b = h.body;
    if (h.type === 'message' && typeof b.body === 'string') {
      return { behavior: 'deny', message: `The person did not pick an answer and wrote: ${b.body}` };
    }
    if (b.theyDecide === true || b.approved === false) return undefined;
    const answers: Record<string, string> = {};
    if (qs.length === 1 && Array.isArray(b.choiceIds)) {
      const labels = b.choiceIds.map((id) => label(qs[0]!, id)).filter((l): l is string => l !== undefined);
      if (labels.length) answers[qs[0]!.question] = labels.join(', ');
    } else if (qs.length === 1 && typeof b.text === 'string') {
      answers[qs[0]!.question] = b.text;
    } else if (b.answers && typeof b.answers === 'object') {
      const given = b.answers as Record<string, unknown>;
      qs.forEach((q, i) => {
        const a = given[askId(i)];
        const l = typeof a === 'string' && /^o\d+$/.test(a) ? label(q, a) : a;
        if (typeof l === 'string') answers[q.question] = l;
      });
    }
    if (Object.keys(answers).length === 0) return undefined;
    return { behavior: 'allow', updatedInput: { ...input, answers } };
  }
  return undefined;
}
