// Parsing a space-separated `scope` against an app's ceiling.
import { SCOPES, type Scope } from '../../api/constants';
import type { AppRecord } from './apps';

/** The scopes asked (the whole ceiling when none are named), or why they cannot be. */
export function askedScopes(scope: string | undefined, app: AppRecord): Scope[] | string {
  if (scope === undefined || scope.trim() === '') return [...app.scopes];
  const names = [...new Set(scope.trim().split(/ +/))];
  const unknown = names.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) return `unknown scope: ${unknown.join(', ')}`;
  const beyond = names.filter((s) => !app.scopes.includes(s as Scope));
  if (beyond.length > 0) return `beyond what ${app.name} registered: ${beyond.join(', ')}`;
  return SCOPES.filter((s) => names.includes(s));
}

export const SCOPE_TEXT: Record<Scope, string> = {
  'cards:read': 'See the cards the assistants on this computer ask you',
  'cards:read:all': 'See every card from all your computers and assistants',
  'cards:answer': 'Answer cards when you press, and undo within 5 seconds',
  'cards:reply': 'Write to the asking assistant on its card',
  'cards:later': 'Put cards in Later and bring them back',
  'cards:delegate': 'Hand a card to another assistant and take it back',
  'assistants:read': 'See your running assistants and their terminals',
  'presence:desk': 'Keep your phone quiet while you are at the app',
};
