// The service's own page for a card, at the card's `url` ({base_url}/cards/{id}): where a person
// is sent for a high-stakes card. It shows the card (all card text escaped: it is untrusted) to
// anyone who opens it, read-only. It lets the person answer it here, in the service, only when they
// came through a one-time link their signed-in app asked for (POST /v1/cards/{id}/page-link, with
// `?ticket=`; docs/decisions.md "#35"): anything else on the computer can load this page, so loading
// it proves nothing. The answer is recorded as coming from the service's web page and takes the usual
// hold (5 s). The page also offers the card's link into the editor (shared/card-link.ts), which
// opens the card there and answers nothing.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Grant, SandboxContext } from './context';
import type { Cards } from './lifecycle';
import { escapeHtml, sendHtml } from './html';
import { ProblemError } from './problems';
import { SCOPES } from '../api/constants';
import type { CardRec, Origin } from './state';
import type { PersonSessions } from './person-sessions';
import { cardLink } from '../shared/card-link';
import { holdsHidden, showHidden } from '../shared/hidden-chars';
import { holdsLookAlike, markLookAlikes } from '../shared/look-alike-words';
import { blankRunWords, diffCount, diffMark, lineCount, longLineWords, summaryParts, type ShownLine } from '../shared/summary-blocks';

/**
 * Untrusted text as the panel shows it: escaped, its hidden characters as `[U+XXXX]` marks (#52
 * F11) and the odd letters of look-alike words as `[U+0456 Cyrillic]` (#52).
 */
const shown = (text: string) => escapeHtml(markLookAlikes(showHidden(text)));

function shownLines(lines: readonly ShownLine[]): string {
  return lines.map((l) => {
    const line = 'blank' in l ? `<span class="mark">${escapeHtml(blankRunWords(l.blank))}</span>`
      : l.long !== undefined ? `<span class="mark">${escapeHtml(longLineWords(l.long))}</span> ${shown(l.text)}` : shown(l.text);
    // A diff line (a file tool's change): its mark in text, so it reads without colour.
    return l.change ? `<span class="change ${l.change}">${diffMark(l.change)} ${line}</span>` : line;
  }).join('\n');
}

/**
 * The summary as the panel lays it out (#52 F4, F11): its line breaks kept, each quoted block (a
 * command, the assistant's "why") in a box of its own with its line count, runs of blank lines and
 * very long lines marked, hidden characters shown.
 */
function summaryHtml(summary: string | undefined): string {
  return summaryParts(summary).map((p) => (p.kind === 'quoted'
    ? `<figure class="quoted"><figcaption class="meta">${escapeHtml(p.diff ? diffCount(p.count, p.diff.removed, p.diff.added) : lineCount(p.count))}</figcaption><pre>${shownLines(p.lines)}</pre></figure>`
    : `<p class="words">${shownLines(p.lines)}</p>`)).join('\n');
}

function page(reply: FastifyReply, status: number, title: string, body: string) {
  return sendHtml(reply, status, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font:15px system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}
.meta{color:#666}.stakes{background:#fff3cd;padding:.5rem;border-radius:4px}button{margin:.2rem}
.words{white-space:pre-wrap;overflow-wrap:anywhere}figure.quoted{margin:.3rem 0 .8rem;border-left:3px solid #888;background:#f4f4f4;padding:.3rem .6rem}
figure.quoted pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:.2rem 0 0}.change.removed{background:#ffebe9}.change.added{background:#dafbe1}.mark{color:#8a4b00;border:1px dashed currentColor;padding:0 .2rem;font-style:italic}
h1,li,button{overflow-wrap:anywhere}
:root{color-scheme:light dark}@media (prefers-color-scheme:dark){body{background:#1e1e1e;color:#ddd}.meta{color:#aaa}
.stakes{background:#4a3b00}figure.quoted{background:#2b2b2b}.mark{color:#f0b060}a{color:#7cb7ff}.change.removed{background:#5c2626}.change.added{background:#23432a}}</style>
</head><body>${body}</body></html>`, { formsTo: 'self' });
}

/** What the page says above the card when its words hold hidden characters or look-alike words (#52). */
function flags(card: CardRec): string {
  const words = [card.title, card.summary, ...(card.options ?? []).map((o) => o.label)];
  return [
    holdsHidden(...words) ? '<p class="stakes" id="hidden-chars">These words hold hidden characters, shown as [U+…]. They can hide or reorder what you answer: read the words as shown before you answer.</p>' : '',
    holdsLookAlike(...words) ? '<p class="stakes" id="look-alike">Some words mix letters of different scripts, which can look like other words: the odd letters are shown as [U+… script]. Read them before you answer.</p>' : '',
  ].join('');
}

/** Why the page shows no form to a person who may not answer here. */
const READ_ONLY = 'To answer this card, open it from Assistant Cards in your editor (Open in Browser): that opens this page with a one-time link that lets you answer here.';
const TICKET_SPENT = 'This link was already used or has expired, so this page is read-only. Open the card again from your editor to answer. If you did not open this link before, something else on this computer did: look at the card\'s history before you answer.';

function answerForm(card: CardRec, formToken: (() => string) | undefined, readOnly: string): string {
  const open = (card.status === 'pending' || card.status === 'snoozed') && card.turn === 'you';
  if (!open) return `<p class="meta">This card is ${escapeHtml(card.status)}; nothing to answer.</p>`;
  if (!formToken) return `<p id="read-only" class="meta">${escapeHtml(readOnly)}</p>`;
  const hidden = `<input type="hidden" name="version" value="${card.version}"><input type="hidden" name="form_token" value="${escapeHtml(formToken())}">`;
  let controls: string;
  if (card.kind === 'approval') {
    controls = '<button name="approved" value="true">Approve</button><button name="approved" value="false">Deny</button>';
  } else if (card.kind === 'update') {
    controls = '<button name="gotIt" value="1">Got it</button>';
  } else if (card.options?.length && !card.multi) {
    controls = card.options.map((o) => `<button name="choiceId" value="${escapeHtml(o.id)}">${shown(o.label)}</button>`).join('');
  } else {
    controls = '<textarea name="text" rows="3" cols="50" required></textarea><br><button>Send</button>';
  }
  // Posts to the card's own address (relative: a port proxy's prefix is kept), never with the ticket.
  return `<form method="post" action="${escapeHtml(encodeURIComponent(card.id))}">${hidden}<p>Answer here, in the service:</p>${controls}</form>`;
}

export function registerCardPage(app: FastifyInstance, ctx: SandboxContext, cards: Cards, sessions: PersonSessions): void {
  const service: Grant = {
    id: 'apg_service-web', userId: ctx.person.userId, workspaceId: ctx.person.workspaceId, appId: 'app_service-web',
    clientId: 'service-web', appName: 'The service (web page)', appVerified: true, scopes: [...SCOPES], reach: 'all',
    createdAt: 0, expiresAt: Number.MAX_SAFE_INTEGER,
  };
  const origin: Origin = { grantId: service.id, appId: service.appId, clientId: service.clientId, appName: service.appName };

  const show = (reply: FastifyReply, session: string, card: CardRec, note = '', status = 200, readOnly = READ_ONLY) => {
    // Only a session a ticket let in gets a form (and a form token); any other sees the card.
    const token = sessions.mayAnswer(session, card.id) ? () => sessions.issue(session, card.id) : undefined;
    const opts = card.options?.length ? `<ul>${card.options.map((o) => `<li>${shown(o.label)}</li>`).join('')}</ul>` : '';
    return page(reply, status, markLookAlikes(showHidden(card.title)), `<h1>${shown(card.title)}</h1>
${flags(card)}${card.highStakes ? '<p class="stakes">High stakes: this card is answered only here, in the service, opened from your editor.</p>' : ''}
<p class="meta">${escapeHtml(card.kind)} · ${escapeHtml(card.urgency)} · ${escapeHtml(card.status)} · version ${card.version}</p>
<div id="summary">${summaryHtml(card.summary)}</div>${opts}${note ? `<p><strong>${escapeHtml(note)}</strong></p>` : ''}${answerForm(card, token, readOnly)}
<p class="meta"><a id="open-in-editor" href="${escapeHtml(cardLink(card.id))}">Open in VS Code</a> (opens this card in the editor; it answers nothing)</p>`);
  };

  void app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
    scope.get('/cards/:id', async (req, reply) => {
      const card = cards.state().cards.get((req.params as { id: string }).id);
      if (!card) return page(reply, 404, 'Not found', '<h1>No such card</h1>');
      // The address may carry a ticket: it must not leave in a Referer.
      reply.header('referrer-policy', 'no-referrer');
      // The person at this page: their session, or a new one the page starts.
      let session = sessions.find(req.headers.cookie);
      if (session === undefined) {
        const started = sessions.start();
        session = started.id;
        reply.header('set-cookie', started.cookie);
      }
      const raw = (req.query as Record<string, unknown>).ticket;
      const ticket = typeof raw === 'string' ? raw : undefined;
      // A ticket is spent by its first load; a reload of the same address keeps the session let in.
      if (ticket !== undefined && !sessions.redeem(session, card.id, ticket) && !sessions.mayAnswer(session, card.id)) {
        return show(reply, session, card, '', 200, TICKET_SPENT);
      }
      return show(reply, session, card);
    });
    scope.post('/cards/:id', async (req, reply) => {
      const id = (req.params as { id: string }).id;
      const card = cards.state().cards.get(id);
      if (!card) return page(reply, 404, 'Not found', '<h1>No such card</h1>');
      const f = (req.body ?? {}) as Record<string, string>;
      const session = sessions.find(req.headers.cookie);
      // Only a session a ticket let in (the person came from their app), with this render's token.
      if (!sessions.mayAnswer(session, id) || !sessions.take(session, id, typeof f.form_token === 'string' ? f.form_token : undefined)) {
        // Not sent from this page as shown to the person (another site posting, or a stale page).
        return page(reply, 403, 'Open the card again', '<h1>Open the card again</h1><p>This answer did not come from the card page opened from your editor. Open the card from Assistant Cards in your editor (Open in Browser) and answer there.</p>');
      }
      const body: Record<string, unknown> = { version: Number(f.version) };
      if (f.approved !== undefined) body.approved = f.approved === 'true';
      if (f.choiceId !== undefined) body.choiceIds = [f.choiceId];
      if (f.text !== undefined) body.text = f.text.slice(0, 10_000);
      try {
        cards.answer(service, origin, id, body, { allowHighStakes: true });
        // The hold this answer got: DESIGN's 5 s, or a test's shorter one (POST /_sandbox/hold).
        return show(reply, session!, card, `Answered. The assistant hears it in ${cards.hold() / 1000} s.`);
      } catch (err) {
        if (err instanceof ProblemError) return show(reply, session!, card, err.detail, 409);
        throw err;
      }
    });
  });
}
