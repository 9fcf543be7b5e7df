import * as assert from 'node:assert/strict';
import { setLocale } from '../../src/shared/l10n';
import { ago, localDateTimeToIso, oneLine, secondsLeft, seen, until } from '../../src/shared/format';

const NOW = Date.parse('2026-11-22T12:00:00Z');

describe('formatting', () => {
  // VS Code's display language, as the extension sets it at activation.
  before(() => setLocale('en'));
  after(() => setLocale(undefined));

  it('says how long ago', () => {
    assert.equal(ago('2026-11-22T11:59:50Z', NOW), 'just now');
    assert.equal(ago('2026-11-22T11:55:00Z', NOW), '5 minutes ago');
    assert.equal(ago('2026-11-22T09:00:00Z', NOW), '3 hours ago');
    assert.equal(ago('2026-11-21T12:00:00Z', NOW), 'yesterday');
    assert.equal(ago('2026-11-19T12:00:00Z', NOW), '3 days ago');
    assert.equal(ago('garbage', NOW), '');
  });

  it('says when a card comes back', () => {
    assert.equal(until('2026-11-22T12:10:00Z', NOW), 'in 10 minutes');
    assert.match(until('2026-11-22T15:00:00Z', NOW, 'UTC'), /^in 3 hours \((15:00|03:00 PM)\)$/);
    assert.equal(until('2026-11-22T11:00:00Z', NOW), 'now');
  });

  it('counts notices', () => {
    assert.equal(seen(3, '2026-11-22T11:55:00Z', NOW), 'seen 3 times, 5 minutes ago');
    assert.equal(seen(undefined, undefined, NOW), 'seen once');
  });

  it('makes untrusted text one bounded, direction-safe line', () => {
    assert.equal(oneLine('a\nb\t c'), 'a b c');
    assert.equal(oneLine('safe\u202Eexe.txt'), 'safe[U+202E]exe.txt', 'a bidi override is shown, not obeyed');
    assert.equal(oneLine('rm -rf\u200B /tmp/x\u0085\u0007'), 'rm -rf[U+200B] /tmp/x[U+0085][U+0007]', 'zero-width, C1 and C0 are shown');
    assert.equal(oneLine('x'.repeat(500), 10), `${'x'.repeat(9)}…`);
  });

  it('counts the undo seconds down, never below zero', () => {
    assert.equal(secondsLeft('2026-11-22T12:00:05Z', NOW), 5);
    assert.equal(secondsLeft('2026-11-22T12:00:04.200Z', NOW), 5);
    assert.equal(secondsLeft('2026-11-22T11:00:00Z', NOW), 0);
    assert.equal(secondsLeft(undefined, NOW), 0);
  });

  it('turns a local date and time into an instant in the person\'s time zone', () => {
    assert.equal(localDateTimeToIso('2026-11-23', '09:30', 'UTC'), '2026-11-23T09:30:00.000Z');
    assert.equal(localDateTimeToIso('2026-11-23', '09:30', 'Europe/Berlin'), '2026-11-23T08:30:00.000Z'); // CET
    assert.equal(localDateTimeToIso('2026-07-01', '09:30', 'Europe/Berlin'), '2026-07-01T07:30:00.000Z'); // CEST
    assert.equal(localDateTimeToIso('2026-11-23', '09:30', 'America/New_York'), '2026-11-23T14:30:00.000Z');
    assert.equal(localDateTimeToIso('23.11.2026', '09:30', 'UTC'), undefined);
    assert.equal(localDateTimeToIso('2026-11-23', '9', 'UTC'), undefined);
    assert.equal(localDateTimeToIso('2026-11-23', '09:30', 'Not/AZone'), undefined);
  });
});
