// The extension's log: a LogOutputChannel with levels. Everything passes through `redact` first,
// so a token, DPoP proof, refresh token or key never reaches it, whoever writes the line.
import * as vscode from 'vscode';

const PATTERNS: [RegExp, string][] = [
  [/(authorization\s*[:=]\s*)(dpop|bearer)\s+[^\s,"']+/gi, '$1$2 [redacted]'], // l10n-ignore: the log's
  [/\b(dpop|bearer)\s+[A-Za-z0-9._~+/-]{16,}=*/gi, '$1 [redacted]'],
  [/("?\b(?:access_token|refresh_token|device_code|id_token|d|privateJwk|client_secret|dpop|proof|machine_attestation)\b"?\s*[:=]\s*)("[^"]*"|[^\s,&}]+)/gi, '$1[redacted]'],
  // Anything shaped like a compact JWS/JWT.
  [/\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, '[redacted-jwt]'],
];

export function redact(text: string): string {
  let out = text;
  for (const [re, by] of PATTERNS) out = out.replace(re, by);
  return out;
}

export interface Log {
  trace(msg: string): void;
  debug(msg: string): void;
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string | Error): void;
  show(): void;
  dispose(): void;
}

export function createLog(): Log {
  const ch = vscode.window.createOutputChannel('Assistant Cards', { log: true });
  const fmt = (m: string | Error) => redact(m instanceof Error ? `${m.name}: ${m.message}` : m); // l10n-ignore: the log's
  return {
    trace: (m) => ch.trace(fmt(m)),
    debug: (m) => ch.debug(fmt(m)),
    info: (m) => ch.info(fmt(m)),
    warn: (m) => ch.warn(fmt(m)),
    error: (m) => ch.error(fmt(m)),
    show: () => ch.show(true),
    dispose: () => ch.dispose(),
  };
}
