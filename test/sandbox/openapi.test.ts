// GET /v1/openapi.json: a valid OpenAPI 3.1 document (checked by an independent validator) that
// describes all 13 /v1 routes of the spec and the additive one (page-link, #35), and the sandbox's
// real answers match the schemas it declares.
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { RunningSandbox } from '../../src/sandbox';
import { openApiDocument } from '../../src/sandbox/openapi';
import { call, signIn, startSandbox, type Answer, type Machine, type SignedIn } from './helpers';

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }>; headers?: Record<string, unknown> }>; parameters?: unknown[] }>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, Record<string, unknown>> };
  'x-dpop': unknown;
};

describe('sandbox openapi: the document', () => {
  it('is valid OpenAPI 3.1 (independent validator)', async () => {
    // An ES module: loaded with a dynamic import from this CommonJS test.
    const { Validator } = await import('@seriousme/openapi-schema-validator');
    const validator = new Validator();
    const result = await validator.validate(openApiDocument('http://127.0.0.1:1234') as Parameters<typeof validator.validate>[0]);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
    assert.equal(validator.version, '3.1');
  });

  it('describes all 13 routes of the spec and the additive page-link, each with its problems, and the sign-in extensions', () => {
    const doc = openApiDocument('http://127.0.0.1:1234') as unknown as Doc;
    const ops = Object.entries(doc.paths).flatMap(([p, m]) => Object.keys(m).map((k) => `${k.toUpperCase()} ${p}`)).filter((o) => o !== 'GET /v1/openapi.json');
    assert.deepEqual(ops.sort(), [
      'GET /v1/assistants', 'GET /v1/cards', 'GET /v1/cards/{id}', 'GET /v1/changes', 'GET /v1/me',
      'POST /v1/cards/{id}/answer', 'POST /v1/cards/{id}/back', 'POST /v1/cards/{id}/delegate', 'POST /v1/cards/{id}/later',
      'POST /v1/cards/{id}/messages', 'POST /v1/cards/{id}/page-link', 'POST /v1/cards/{id}/take-back', 'POST /v1/cards/{id}/undo', 'POST /v1/presence',
    ]);
    const answer = doc.paths['/v1/cards/{id}/answer']!.post!;
    for (const status of ['200', '400', '401', '403', '404', '409', '422', '429', '500', '501', '503']) assert.ok(answer.responses[status], `answer ${status}`);
    assert.ok(doc.components.securitySchemes.dpop!['x-device-authorization']);
    assert.ok(doc['x-dpop']);
    const cards = doc.paths['/v1/cards']!.get!;
    assert.ok(cards.responses['304']);
  });
});

describe('sandbox openapi: real answers match it', () => {
  let sb: RunningSandbox;
  let doc: Doc;
  let s: SignedIn;
  let ajv: Ajv2020;

  before(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ac-openapi-'));
    sb = await startSandbox({ port: 0, demo: { machineFile: join(dir, 'machine.json'), machineName: 'demo-box' } });
    const identity = JSON.parse(await readFile(join(dir, 'machine.json'), 'utf8')) as Machine;
    s = await signIn(sb.url, { machine: identity });
    const res = await call('GET', `${sb.url}/v1/openapi.json`);
    assert.equal(res.status, 200);
    doc = res.json as Doc;
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'api', components: { schemas: doc.components.schemas } });
  });
  after(() => sb.close());

  /** Asserts the answer's status is declared for the operation and its body matches the schema. */
  function matches(method: string, template: string, res: Answer): void {
    const op = doc.paths[template]?.[method.toLowerCase()];
    assert.ok(op, `${method} ${template} is described`);
    const declared = op.responses[String(res.status)];
    assert.ok(declared, `${method} ${template} declares ${res.status} (${res.text.slice(0, 200)})`);
    if (template !== '/v1/openapi.json') {
      assert.ok(res.headers.get('service-version'), 'Service-Version');
      assert.ok(res.headers.get('dpop-nonce'), 'DPoP-Nonce');
    }
    if (!declared.content) {
      assert.equal(res.text, '', `${res.status} has no body`);
      return;
    }
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
    const media = declared.content[type];
    assert.ok(media, `${method} ${template} ${res.status} declares ${type}`);
    const schema = media.schema as { $ref?: string };
    const validate = schema.$ref ? ajv.getSchema(`api${schema.$ref}`) : ajv.compile(schema);
    assert.ok(validate);
    const ok = validate(res.json);
    assert.ok(ok, `${method} ${template} ${res.status}: ${JSON.stringify(validate.errors, null, 1)}\n${res.text.slice(0, 500)}`);
  }

  it('GET /v1/me, /v1/assistants, /v1/changes, /v1/openapi.json', async () => {
    matches('GET', '/v1/me', await s.request('GET', '/v1/me'));
    matches('GET', '/v1/assistants', await s.request('GET', '/v1/assistants'));
    matches('GET', '/v1/changes', await s.request('GET', '/v1/changes?limit=10'));
    matches('GET', '/v1/openapi.json', await call('GET', `${sb.url}/v1/openapi.json`));
  });

  it('GET /v1/cards in every status, whole and light, and one card', async () => {
    for (const status of ['pending', 'snoozed', 'delegated', 'done']) {
      const res = await s.request('GET', `/v1/cards?status=${status}&whole=1&limit=100`);
      matches('GET', '/v1/cards', res);
    }
    const list = await s.request('GET', '/v1/cards?whole=0');
    assert.ok(list.json.cards.length > 0, 'the demo has cards in reach');
    const one = await s.request('GET', `/v1/cards/${list.json.cards[0].id}`);
    matches('GET', '/v1/cards/{id}', one);
    const again = await s.request('GET', `/v1/cards/${list.json.cards[0].id}`, { headers: { 'if-none-match': one.headers.get('etag')! } });
    assert.equal(again.status, 304);
    matches('GET', '/v1/cards/{id}', again);
  });

  it('every card action and presence', async () => {
    const pending = (await s.request('GET', '/v1/cards?whole=3&limit=100')).json.cards as { id: string; kind: string; highStakes?: boolean; whole?: boolean }[];
    const free = [];
    for (const c of pending.filter((x) => !x.highStakes)) free.push((await s.request('GET', `/v1/cards/${c.id}`)).json.card);
    const choice = free.find((c) => c.kind === 'choice' && c.options?.length);
    assert.ok(choice, 'a choice card to answer');
    const answered = await s.request('POST', `/v1/cards/${choice.id}/answer`, { body: { version: choice.version, choiceIds: [choice.options[0].id] }, headers: { 'idempotency-key': 'openapi-answer-1' } });
    matches('POST', '/v1/cards/{id}/answer', answered);
    matches('POST', '/v1/cards/{id}/undo', await s.request('POST', `/v1/cards/${choice.id}/undo`));

    const other = free.find((c) => c.id !== choice.id)!;
    matches('POST', '/v1/cards/{id}/later', await s.request('POST', `/v1/cards/${other.id}/later`, { body: { until: '1h' } }));
    matches('POST', '/v1/cards/{id}/back', await s.request('POST', `/v1/cards/${other.id}/back`));
    matches('POST', '/v1/cards/{id}/messages', await s.request('POST', `/v1/cards/${choice.id}/messages`, { body: { body: 'Use the second one.' } }));

    const assistants = (await s.request('GET', '/v1/assistants')).json.assistants as { id: string }[];
    const helper = assistants.find((a) => a.id !== other.assistant?.id);
    assert.ok(helper, 'another assistant to hand over to');
    matches('POST', '/v1/cards/{id}/delegate', await s.request('POST', `/v1/cards/${other.id}/delegate`, { body: { to: { assistantId: helper.id }, mode: 'loop' } }));
    matches('POST', '/v1/cards/{id}/take-back', await s.request('POST', `/v1/cards/${other.id}/take-back`));
    matches('POST', '/v1/presence', await s.request('POST', '/v1/presence', { body: { here: true } }));
    matches('POST', '/v1/cards/{id}/page-link', await s.request('POST', `/v1/cards/${other.id}/page-link`));
  });

  it('problems and OAuth refusals match too', async () => {
    matches('GET', '/v1/cards/{id}', await s.request('GET', '/v1/cards/req_nope'));
    matches('GET', '/v1/cards', await s.request('GET', '/v1/cards?status=everything'));
    matches('POST', '/v1/cards/{id}/answer', await s.request('POST', '/v1/cards/req_nope/answer', { body: { version: 1 } }));
    matches('POST', '/v1/cards/{id}/page-link', await s.request('POST', '/v1/cards/req_nope/page-link'));
    matches('GET', '/v1/me', await call('GET', `${sb.url}/v1/me`));
    const reader = await signIn(sb.url, { scopes: ['cards:read'] });
    matches('POST', '/v1/presence', await reader.request('POST', '/v1/presence', { body: { here: true } }));
  });
});
