// Secrets never reach a log: a whole session (sign-in, refresh, retries, an answer, a failure)
// with a capturing logger, then every secret the session held is searched for in the lines.
import { strict as assert } from 'node:assert';
import { redact } from '../../src/api/runtime';
import type { Logger } from '../../src/api/runtime';
import { MemorySecretStore } from '../../src/auth/secret-store';
import { signInSlot } from '../../src/auth/sign-in-slot';
import { until, makeWorld, settle, signInCore } from '../kit';
import type { World } from '../kit';
import { pressOutsideThePath } from '../../src/sync/session';

describe('auth: secrets never reach a log', () => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld({ me: false });
  });
  afterEach(async () => {
    await w.close();
  });

  it('no token, refresh token, device code, proof or key appears in any log line', async () => {
    const lines: string[] = [];
    const capture = (level: string) => (m: string, f?: Record<string, unknown>) => lines.push(`${level} ${m} ${JSON.stringify(f ?? {})}`);
    const logger: Logger = { info: capture('info'), warn: capture('warn'), error: capture('error') };
    const store = new MemorySecretStore();
    const core = w.core({ store, logger });
    core.feed.setFocused(true);
    await signInCore(w, core);
    const slot = signInSlot(w.url, w.machineId);
    const secrets = new Set<string>();
    const collect = async () => {
      const t = JSON.parse((await store.get(slot.tokensKey)) ?? '{}');
      if (t.accessToken) secrets.add(t.accessToken);
      if (t.refreshToken) secrets.add(t.refreshToken);
    };
    await collect();
    const key = JSON.parse((await store.get(slot.dpopKeyKey))!);
    secrets.add(key.d);
    // Retries and failures log; a refresh logs.
    await w.ctl('POST', '/_sandbox/faults', { path: '/v1/changes', status: 503, times: 2 });
    const c = await w.card();
    await w.advanceUntil(() => core.cards.get(c.id) !== undefined, 5000, 120_000);
    await w.advance(14 * 60_000);
    await core.cards.refresh();
    await collect();
    await w.ctl('POST', '/_sandbox/faults', { path: `/v1/cards/${c.id}/answer`, status: 503, times: 1 });
    const p = pressOutsideThePath(core, core.gestures.fromUiEvent('click'), { id: c.id, version: c.version }, { type: 'answer', answer: { choiceIds: ['a'] } });
    let done = false;
    void p.send().then(() => (done = true));
    await w.advanceUntil(() => done, 500, 30_000);
    await settle(w.transports);
    for (const l of core.transport.log) {
      if (l.headers.dpop) secrets.add(l.headers.dpop);
      if (l.body?.includes('device_code=')) secrets.add(new URLSearchParams(l.body).get('device_code')!);
    }
    await until(() => lines.length > 0);
    assert.ok(lines.some((l) => /refreshed/.test(l)), 'the refresh was logged (so the test looks at real lines)');
    assert.ok(lines.some((l) => /retrying/.test(l)));
    assert.ok(secrets.size >= 5);
    for (const s of secrets) {
      for (const l of lines) assert.ok(!l.includes(s), `a secret leaked into: ${l}`);
    }
  });
});

describe('auth: redaction of token shapes', () => {
  const opaque = 'opq_9f8e7d6c5b4a39281706';

  it('camelCase and snake_case token fields in objects, at any depth', () => {
    const facts = { accessToken: opaque, refreshToken: opaque, nested: { a: { b: { c: { d2: { e: { refreshToken: opaque } } } } } } };
    const out = JSON.stringify(redact(facts));
    assert.ok(!out.includes(opaque), out);
    const deep = JSON.stringify(redact({ l1: { l2: { l3: { l4: { l5: { l6: [{ note: `DPoP ${opaque}` }] } } } } } }));
    assert.ok(!deep.includes(opaque), deep);
  });

  it('token fields inside JSON text and form bodies', () => {
    for (const text of [
      `stored {"accessToken":"${opaque}","refreshToken":"${opaque}","expiresAt":1}`,
      `reply {"access_token": "${opaque}", "token_type":"DPoP", "refresh_token" : "${opaque}"}`,
      `escaped {\\"refreshToken\\":\\"${opaque}\\"}`,
      `body grant_type=refresh_token&refresh_token=${opaque}&client_id=x`,
      `poll device_code=${opaque}`,
    ]) {
      const out = redact(text) as string;
      assert.ok(!out.includes(opaque), out);
    }
    assert.match(redact('{"accessToken":"x1y2z3w4"}') as string, /accessToken/, 'the field name stays: the line still says what was there');
  });

  it('Authorization values in any case: DPoP, Bearer, dpop, bearer', () => {
    for (const text of [`Authorization: DPoP ${opaque}`, `authorization: bearer ${opaque}`, `BEARER ${opaque}`, `header dpop=${opaque}`]) {
      const out = redact(text) as string;
      assert.ok(!out.includes(opaque), out);
    }
  });

  it('ordinary words are kept', () => {
    assert.equal(redact('refresh refused: invalid_grant'), 'refresh refused: invalid_grant');
    assert.equal(redact('access token refreshed'), 'access token refreshed');
  });
});
