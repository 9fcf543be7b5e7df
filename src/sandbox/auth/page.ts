// Server-rendered HTML for the approval pages: no scripts, no external assets, every value escaped.
import type { Scope } from '../../api/schemas';
import type { AppRecord } from './apps';
import { SCOPE_TEXT } from './scopes';
import { escapeHtml } from '../html';


const STYLE = `
body{font:15px/1.45 system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem;color:#1b1f24;background:#fff}
h1{font-size:1.35rem}.badge{display:inline-block;padding:.1rem .5rem;border-radius:1rem;font-size:.8rem}
.verified{background:#dcfce7;color:#14532d}.unverified{background:#fef3c7;color:#78350f}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem}dt{color:#57606a}
fieldset{border:1px solid #d0d7de;border-radius:.4rem}label{display:block;margin:.3rem 0}
.code{font:600 1.2rem ui-monospace,monospace;letter-spacing:.1em}
button{font:inherit;padding:.45rem 1.1rem;margin-right:.6rem;border-radius:.35rem;border:1px solid #8c959f;cursor:pointer}
button[value=allow]{background:#1f6feb;color:#fff;border-color:#1f6feb}.note{color:#57606a;font-size:.9rem}
.error{color:#a40e26}
`;

export function pageHtml(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="same-origin"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

export interface ConsentView {
  app: AppRecord;
  /** The computer the sign-in is for, or none for a web or desktop app. */
  machine?: { id: string; name: string };
  scopes: Scope[];
  /** Scopes the person cannot untick (a web or desktop app always holds cards:read:all). */
  fixed: Scope[];
  action: string;
  hidden: Record<string, string>;
  userCode?: string;
}

export function consentPage(v: ConsentView): string {
  const verified = v.app.verification === 'verified';
  const boxes = v.scopes
    .map((s) => {
      const fixed = v.fixed.includes(s);
      return `<label><input type="checkbox" name="scope" value="${escapeHtml(s)}" checked${fixed ? ' disabled' : ''}> <code>${escapeHtml(s)}</code>: ${escapeHtml(SCOPE_TEXT[s])}${fixed ? ' <span class="note">(always held by this kind of app)</span>' : ''}</label>`
        + (fixed ? `<input type="hidden" name="scope" value="${escapeHtml(s)}">` : '');
    })
    .join('\n');
  const hidden = Object.entries(v.hidden)
    .map(([k, val]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(val)}">`)
    .join('');
  return pageHtml(
    `Allow ${v.app.name}?`,
    `<h1>Allow <span id="app-name">${escapeHtml(v.app.name)}</span> to act for you?</h1>
<dl>
<dt>Publisher</dt><dd id="publisher">${escapeHtml(v.app.publisher)}</dd>
<dt>Status</dt><dd id="verified"><span class="badge ${verified ? 'verified' : 'unverified'}">${verified ? 'Verified app' : 'Unverified app'}</span></dd>
<dt>Computer</dt><dd id="computer">${v.machine ? `${escapeHtml(v.machine.name)} <span class="note">(${escapeHtml(v.machine.id)})</span>` : 'None: this app signs in without a computer and sees every card'}</dd>
${v.userCode ? `<dt>Code</dt><dd class="code" id="user-code">${escapeHtml(v.userCode)}</dd>` : ''}
</dl>
${verified ? '' : '<p class="note">This app is not verified: it works only for its owner and up to 10 testers. Allow it only if you know who made it.</p>'}
<form method="post" action="${escapeHtml(v.action)}">${hidden}
<fieldset><legend>It asks to</legend>
${boxes}
</fieldset>
<p class="note">Untick what you do not want to allow. The app can never answer for you on its own: every answer comes from your press.</p>
<p><button type="submit" name="action" value="allow" id="allow">Allow</button><button type="submit" name="action" value="deny" id="deny">Deny</button></p>
</form>`,
  );
}

export function messagePage(title: string, message: string, kind: 'ok' | 'error' = 'ok'): string {
  return pageHtml(title, `<h1 id="result">${escapeHtml(title)}</h1><p class="${kind === 'error' ? 'error' : ''}" id="message">${escapeHtml(message)}</p>`);
}

export function codeEntryPage(action: string, error?: string): string {
  return pageHtml(
    'Sign in an app',
    `<h1>Sign in an app</h1>${error ? `<p class="error" id="message">${escapeHtml(error)}</p>` : ''}
<form method="get" action="${escapeHtml(action)}"><label>Code shown by the app <input name="user_code" autocomplete="off" placeholder="ABCD-EFGH" required></label>
<p><button type="submit">Continue</button></p></form>`,
  );
}
