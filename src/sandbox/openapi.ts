// GET /v1/openapi.json: an OpenAPI 3.1 description of every /v1 route, its parameters, bodies,
// answers and problems, with x- extensions for the device sign-in (and the computer attestation)
// and for DPoP. Built per request from `{base_url}`, so addresses in it are the sandbox's own.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CARD_STATUSES, KNOWN_APPS, KNOWN_KINDS, PROBLEM_CODES, SCOPES, SERVICE_VERSION, type ProblemCode, type Scope } from '../api/constants';
import { bool, dateTime, int, obj, openEnum, pattern, ref, str, type Schema } from './openapi-parts';
import { PROBLEM_STATUS } from './problems';
import { V1_ROUTES, type V1Route } from './v1-route-table';

const Named = obj({ id: str(), name: str() }, ['id', 'name']);

function schemas(): Record<string, Schema> {
  const Option = obj({ id: str(), label: str() }, ['id', 'label']);
  const CardLight = obj(
    {
      id: pattern('req'),
      version: int({ minimum: 0 }),
      status: openEnum([...CARD_STATUSES, 'answered'], 'Where the card is.'),
      turn: openEnum(['you', 'agent'], 'Who the card waits on.'),
      kind: openEnum(KNOWN_KINDS, 'What is asked.'),
      title: str(),
      urgency: str(),
      blocking: bool,
      threadId: pattern('req'),
      highStakes: bool,
      whole: { const: false },
    },
    ['id', 'version', 'status', 'turn', 'kind', 'title'],
    { description: 'The lighter form of a card, after the first `whole` cards of a list (DESIGN).' },
  );
  const Card = obj(
    {
      id: pattern('req'),
      version: int({ minimum: 0 }),
      status: openEnum([...CARD_STATUSES, 'answered'], 'Where the card is.'),
      turn: openEnum(['you', 'agent'], 'Who the card waits on.'),
      kind: openEnum(KNOWN_KINDS, 'What is asked.'),
      title: str(),
      summary: str(),
      urgency: str(),
      blocking: bool,
      options: { type: 'array', items: Option },
      recommendedIds: { type: 'array', items: str() },
      threadId: pattern('req'),
      url: str({ format: 'uri' }),
      highStakes: bool,
      createdAt: dateTime,
      changedAt: dateTime,
      assistant: obj({ id: pattern('con'), name: str(), app: openEnum(KNOWN_APPS, 'Assistant app.') }, ['id', 'name', 'app']),
      agent: Named,
      area: Named,
      machine: Named,
      multi: bool,
      asks: { type: 'array', items: obj({ id: str(), title: str(), options: { type: 'array', items: Option } }, ['id', 'title']) },
      steps: { type: 'array', items: obj({ title: str(), state: str(), detail: str() }, ['title']) },
      answeredFrom: obj({ app: str(), machine: Named }, ['app']),
      proposal: { type: 'object', description: 'The helper\'s answer of a `loop` delegation, waiting on the person.' },
      answer: { type: 'object', description: 'On answered and done cards: the answer body as given (the person\'s or a `freely` helper\'s), without `version`.' },
      until: dateTime,
      undoUntil: dateTime,
      delegatedTo: obj({ assistantId: pattern('con'), agentId: str(), mode: str({ enum: ['freely', 'loop'] }) }, ['assistantId', 'mode']),
      history: {
        type: 'array',
        items: obj({ at: dateTime, type: str(), by: str(), app: str(), appName: str(), machine: Named, detail: str() }, ['at', 'type']),
      },
      severity: str(),
      count: int({ minimum: 1 }),
      from: str(),
      webhook: obj({ name: str(), area: Named }, ['name']),
      firstAt: dateTime,
      lastAt: dateTime,
      worker: str(),
    },
    ['id', 'version', 'status', 'turn', 'kind', 'title'],
    { description: 'A card. Fields beyond the spec\'s are DESIGN\'s additive ones; clients ignore fields they do not know.' },
  );
  const Scopes = { type: 'array', items: openEnum(SCOPES, 'A scope.') };
  return {
    Option,
    Named,
    Card,
    CardLight,
    CardList: obj(
      {
        cards: { type: 'array', items: { anyOf: [ref('Card'), ref('CardLight')] } },
        next: { type: ['string', 'null'], description: 'Continuation: pass back as `after`; null at the end.' },
      },
      ['cards'],
    ),
    CardEnvelope: obj({ card: ref('Card') }, ['card']),
    Me: obj(
      {
        user: obj({ id: pattern('usr'), name: str(), email: str() }, ['id']),
        workspace: obj({ id: pattern('ws') }, ['id']),
        app: obj({ id: pattern('app'), name: str(), verified: bool }, ['id', 'name', 'verified']),
        grant: obj(
          {
            id: pattern('apg'),
            scopes: Scopes,
            reach: openEnum(['machine', 'all'], '`machine`: one computer; `all`: every card.'),
            machine: Named,
            dpop: bool,
            createdAt: dateTime,
            expiresAt: dateTime,
          },
          ['id', 'scopes', 'reach', 'dpop', 'createdAt', 'expiresAt'],
        ),
      },
      ['user', 'workspace', 'app', 'grant'],
    ),
    LiveSession: obj(
      {
        appSessionId: str(),
        cwd: str(),
        liveAt: dateTime,
        terminal: obj({ pid: int(), tty: str(), program: str() }, [], { description: 'The terminal the session runs in (DESIGN).' }),
      },
      ['appSessionId', 'cwd', 'liveAt'],
    ),
    Agent: obj(
      {
        id: pattern('agt'),
        name: str(),
        state: openEnum(['live', 'recent', 'quiet'], 'How lately the agent was live.'),
        liveAt: { anyOf: [dateTime, { type: 'null' }] },
        openCards: int({ minimum: 0 }),
        liveSessions: { type: 'array', items: ref('LiveSession') },
      },
      ['id', 'name', 'state', 'openCards', 'liveSessions'],
    ),
    Assistant: obj(
      {
        id: pattern('con'),
        app: openEnum(KNOWN_APPS, 'The assistant\'s app.'),
        appName: str(),
        name: str(),
        machine: Named,
        hears: openEnum(['while-working'], 'When the assistant hears answers.'),
        agents: { type: 'array', items: ref('Agent') },
      },
      ['id', 'app', 'appName', 'name', 'machine', 'hears', 'agents'],
    ),
    AssistantList: obj({ assistants: { type: 'array', items: ref('Assistant') } }, ['assistants']),
    Change: obj(
      { type: openEnum(['card.created', 'card.answered', 'card.changed', 'card.closed'], 'What happened.'), cardId: pattern('req'), at: dateTime },
      ['type', 'cardId', 'at'],
    ),
    ChangeList: obj({ changes: { type: 'array', items: ref('Change') }, cursor: str(), more: bool }, ['changes', 'cursor', 'more']),
    PageLink: obj(
      {
        url: str({ format: 'uri', description: 'The card\'s page in the service with a one-time ticket; open it in the person\'s browser at once.' }),
        expiresAt: dateTime,
      },
      ['url', 'expiresAt'],
      { description: 'A one-time link into the card\'s page, where the person may answer it (docs/decisions.md "#35").' },
    ),
    AnswerResult: obj({ id: pattern('req'), status: { const: 'answered' }, version: int(), undoUntil: dateTime }, ['id', 'status', 'version', 'undoUntil']),
    PendingResult: obj({ id: pattern('req'), status: { const: 'pending' }, version: int() }, ['id', 'status', 'version']),
    MessageResult: obj({ id: pattern('req'), messageId: pattern('msg'), turn: str(), version: int() }, ['id', 'messageId', 'turn', 'version']),
    LaterResult: obj({ id: pattern('req'), status: { const: 'snoozed' }, until: dateTime, version: int() }, ['id', 'status', 'until', 'version']),
    DelegateResult: obj(
      { id: pattern('req'), status: { const: 'delegated' }, version: int(), hears: str(), undoUntil: dateTime },
      ['id', 'status', 'version', 'hears', 'undoUntil'],
    ),
    AnswerBody: obj(
      {
        version: int({ description: 'The card version shown to the person.' }),
        choiceIds: { type: 'array', items: str() },
        approved: bool,
        text: str({ maxLength: 10_000 }),
        note: obj({ text: str({ maxLength: 10_000 }) }, ['text']),
        via: str({ enum: ['text', 'voice'] }),
        theyDecide: { const: true, description: '"You decide": the decision goes back to the assistant.' },
        answers: { type: 'object', additionalProperties: str(), description: 'questions cards: ask id -> choice id or text.' },
        failedStep: int(),
        askId: str(),
      },
      ['version'],
    ),
    MessageBody: obj({ body: str({ minLength: 1, maxLength: 10_000 }), via: str({ enum: ['text', 'voice'] }) }, ['body']),
    LaterBody: obj(
      {
        until: str({ description: 'ISO 8601 datetime one minute to two months ahead, or a preset: 1h, tonight (6:00 PM), tomorrow (8:00 AM).' }),
        timeZone: str({ description: 'IANA time zone for presets; default UTC.' }),
      },
      ['until'],
    ),
    DelegateBody: obj(
      {
        to: obj({ assistantId: pattern('con'), agentId: str() }, ['assistantId']),
        mode: str({ enum: ['freely', 'loop'] }),
        note: str({ maxLength: 10_000 }),
      },
      ['to', 'mode'],
    ),
    OptionalBody: { type: 'object', description: 'Optional; its fields are not shown by the spec.' },
    PresenceBody: obj({ here: bool }, ['here']),
    Problem: obj(
      {
        type: str({ format: 'uri' }),
        title: str(),
        status: int(),
        code: openEnum(PROBLEM_CODES, 'Stable problem code.'),
        detail: str(),
        requestId: str({ pattern: '^rid_', description: 'rid_... identifies this request in the service\'s logs.' }),
        url: str({ format: 'uri', description: 'The card in the service (on high_stakes).' }),
        errors: { type: 'array', items: obj({ field: str(), reason: str() }, ['field', 'reason']), description: 'On invalid.' },
      },
      ['type', 'title', 'status', 'code', 'detail', 'requestId'],
    ),
    OAuthError: obj({ error: str(), error_description: str() }, ['error']),
  };
}

const H = {
  serviceVersion: { description: 'The behaviour version this answer followed.', schema: str({ format: 'date' }) },
  dpopNonce: { description: 'The latest DPoP nonce, for the next proof.', schema: str() },
  etag: { description: 'Send back in If-None-Match; an unchanged read answers 304.', schema: str() },
  replayed: { description: 'Present when the stored first answer is replayed.', schema: str({ enum: ['true'] }) },
  retryAfter: { description: 'Seconds to wait.', schema: int({ minimum: 0 }) },
  wwwAuthenticate: { description: 'The OAuth challenge: error and, on insufficient_scope, the scope.', schema: str() },
};

const COMMON_HEADERS = { 'Service-Version': H.serviceVersion, 'DPoP-Nonce': H.dpopNonce };

function problemResponses(codes: ProblemCode[], scope: Scope | 'any'): Record<string, Schema> {
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of codes) byStatus.set(PROBLEM_STATUS[code], [...(byStatus.get(PROBLEM_STATUS[code]) ?? []), code]);
  const out: Record<string, Schema> = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const content: Record<string, Schema> = { 'application/problem+json': { schema: ref('Problem') } };
    if (status === 403 && scope !== 'any') content['application/json'] = { schema: ref('OAuthError') };
    out[String(status)] = {
      description: `Problem: ${list.join(', ')}${status === 403 && scope !== 'any' ? '; or OAuth insufficient_scope (application/json, WWW-Authenticate names the scope)' : ''}.`,
      headers: { ...COMMON_HEADERS, ...(status === 429 ? { 'Retry-After': H.retryAfter } : {}), ...(status === 403 && scope !== 'any' ? { 'WWW-Authenticate': H.wwwAuthenticate } : {}) },
      content,
      'x-problem-codes': list,
    };
  }
  out['401'] = {
    description: 'OAuth refusal: invalid_token, invalid_dpop_proof or use_dpop_nonce (make the proof again with the DPoP-Nonce of this answer and repeat once).',
    headers: { ...COMMON_HEADERS, 'WWW-Authenticate': H.wwwAuthenticate },
    content: { 'application/json': { schema: ref('OAuthError') } },
  };
  return out;
}

const cardId: Schema = { name: 'id', in: 'path', required: true, schema: pattern('req') };

/** The classes a call of the route counts against, as the document names them (the limiter's names). */
export function limitClassesOf(r: V1Route): { always: string[]; whenWaiting?: string[] } {
  return {
    always: [...r.classes, 'person'],
    ...(r.classesWhenWaiting ? { whenWaiting: [...r.classesWhenWaiting, 'person'] } : {}),
  };
}

function operation(r: V1Route): Schema {
  const reads = r.method === 'GET';
  const classes = limitClassesOf(r);
  const parameters: Schema[] = [
    ...(r.path.includes('{id}') ? [cardId] : []),
    ...(r.query ?? []),
    { $ref: '#/components/parameters/DPoP' },
    { $ref: '#/components/parameters/ServiceVersion' },
    ...(reads ? [{ $ref: '#/components/parameters/IfNoneMatch' }] : []),
    ...(r.idempotency ? [{ ...(r.idempotency === 'required' ? { $ref: '#/components/parameters/IdempotencyKeyRequired' } : { $ref: '#/components/parameters/IdempotencyKey' }) }] : []),
  ];
  const okHeaders: Record<string, Schema> = { ...COMMON_HEADERS };
  if (reads) okHeaders.ETag = H.etag;
  if (r.idempotency) okHeaders['Idempotent-Replayed'] = H.replayed;
  const responses: Record<string, Schema> = {
    [String(r.ok.status)]: {
      description: r.ok.description,
      headers: okHeaders,
      ...(r.ok.schema ? { content: { 'application/json': { schema: ref(r.ok.schema) } } } : {}),
    },
    ...(reads ? { '304': { description: 'Unchanged since the ETag named in If-None-Match.', headers: { ...COMMON_HEADERS, ETag: H.etag } } } : {}),
    ...problemResponses(r.problems, r.scope),
  };
  return {
    operationId: r.operationId,
    summary: r.summary,
    security: [{ dpop: r.scope === 'any' ? [] : [r.scope] }, { bearer: r.scope === 'any' ? [] : [r.scope] }],
    'x-scope': r.scope,
    'x-limit-classes': classes.always,
    ...(classes.whenWaiting ? { 'x-limit-classes-when-waiting': classes.whenWaiting } : {}),
    parameters,
    ...(r.body
      ? { requestBody: { required: r.body.required, content: { 'application/json': { schema: ref(r.body.schema) } } } }
      : {}),
    responses,
  };
}

export function openApiDocument(baseUrl: string): Schema {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const r of V1_ROUTES) (paths[r.path] ??= {})[r.method.toLowerCase()] = operation(r);
  paths['/v1/openapi.json'] = {
    get: {
      operationId: 'getOpenApi',
      summary: 'This document',
      security: [],
      responses: { '200': { description: 'OpenAPI 3.1 document.', headers: { 'Service-Version': H.serviceVersion }, content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  };
  const scopeText: Record<Scope, string> = {
    'cards:read': 'See cards the assistants on the signed-in computer ask the person',
    'cards:read:all': 'See every card from all the person\'s computers and assistants',
    'cards:answer': 'Answer cards on a press, and undo within 5 seconds',
    'cards:reply': 'Write to the asking assistant on its card',
    'cards:later': 'Put cards in Later and bring them back',
    'cards:delegate': 'Hand a card to another assistant and take it back',
    'assistants:read': 'See running assistants and their terminals',
    'presence:desk': 'Keep the person\'s phone quiet while at the app',
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Assistant Cards Person API',
      version: SERVICE_VERSION,
      description: 'Cards the person\'s AI assistants ask, answered only on the person\'s press. Served by the local sandbox.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: baseUrl }],
    paths,
    components: {
      schemas: schemas(),
      parameters: {
        DPoP: { name: 'DPoP', in: 'header', required: false, description: 'DPoP proof for this request (required with a DPoP-bound token). See x-dpop.', schema: str() },
        ServiceVersion: { name: 'Service-Version', in: 'header', required: false, description: `Pins a behaviour version. Known: ${SERVICE_VERSION}. An unknown date is 400 invalid.`, schema: str({ enum: [SERVICE_VERSION] }) },
        IfNoneMatch: { name: 'If-None-Match', in: 'header', required: false, schema: str() },
        IdempotencyKey: { name: 'Idempotency-Key', in: 'header', required: false, description: 'One key per press; replayed for 24 h.', schema: str({ minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' }) },
        IdempotencyKeyRequired: { name: 'Idempotency-Key', in: 'header', required: true, description: 'One key per press; replayed for 24 h.', schema: str({ minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' }) },
      },
      securitySchemes: {
        dpop: {
          type: 'oauth2',
          description: 'OAuth 2.1 with DPoP-bound tokens: `Authorization: DPoP <token>` and a `DPoP` proof per request (x-dpop). Devices sign in with the device flow (x-device-authorization).',
          flows: {
            authorizationCode: {
              authorizationUrl: `${baseUrl}/oauth/authorize`,
              tokenUrl: `${baseUrl}/oauth/token`,
              refreshUrl: `${baseUrl}/oauth/token`,
              scopes: scopeText,
            },
          },
          'x-device-authorization': {
            deviceAuthorizationUrl: `${baseUrl}/oauth/device`,
            tokenUrl: `${baseUrl}/oauth/token`,
            grantType: 'urn:ietf:params:oauth:grant-type:device_code',
            formFields: ['client_id', 'scope', 'resource', 'machine', 'machine_attestation'],
            resource: `${baseUrl}/v1`,
            expiresIn: 600,
            interval: 3,
            pollingErrors: ['authorization_pending', 'slow_down', 'access_denied', 'expired_token'],
            slowDownStep: 5,
            verificationUri: `${baseUrl}/device`,
            machineAttestation: {
              format: 'compact JWS',
              alg: 'ES256',
              typ: 'machine-attestation+jwt',
              kid: 'the computer id (mch_...)',
              claims: { iss: 'the computer id', aud: baseUrl, jkt: 'RFC 7638 thumbprint of the app\'s DPoP key', iat: 'seconds', exp: 'at most iat + 300', jti: 'random' },
              refusal: '400 invalid_request naming the reason (no attestation, unknown computer, bad signature, ...)',
            },
          },
          'x-pkce': { methods: ['S256'], redirectMatching: 'exact; a registered loopback address matches on any port' },
        },
        bearer: {
          type: 'oauth2',
          description: 'A website with a server exchanges its code with its client secret and may skip DPoP: `Authorization: Bearer <token>`.',
          flows: { authorizationCode: { authorizationUrl: `${baseUrl}/oauth/authorize`, tokenUrl: `${baseUrl}/oauth/token`, refreshUrl: `${baseUrl}/oauth/token`, scopes: scopeText } },
        },
      },
    },
    'x-dpop': {
      spec: 'RFC 9449',
      header: { typ: 'dpop+jwt', alg: ['ES256'], jwk: 'the public P-256 key (no private members)' },
      claims: { jti: 'random, new per request; a jti seen in the last 5 minutes is refused', htm: 'the method', htu: `${baseUrl}<path>, without query or fragment`, iat: 'seconds, within 60 s of the server clock either way', ath: 'base64url SHA-256 of the access token (resource requests)', nonce: 'the latest DPoP-Nonce' },
      nonce: { tokenEndpoint: 'required: a proof without one gets 400 use_dpop_nonce and a DPoP-Nonce header', resource: 'required too: without one or with an old one, 401 use_dpop_nonce with WWW-Authenticate: DPoP error="use_dpop_nonce" and a DPoP-Nonce; repeat once with the new nonce', lifetime: 'good for 5 minutes after a newer one is issued' },
      binding: 'access tokens are bound to the key thumbprint (cnf.jkt); a bound token without a proof, or sent as Bearer, is refused',
      accessTokenLifetime: 900,
      refresh: 'grant_type=refresh_token, refresh_token, client_id, with a proof by the same key; rotated on every use; a replayed refresh token revokes the sign-in',
    },
  };
}

export function registerOpenApi(app: FastifyInstance, baseUrl: (req: FastifyRequest) => string): void {
  app.get('/v1/openapi.json', async (req, reply) => {
    return reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', 'public, max-age=300').send(JSON.stringify(openApiDocument(baseUrl(req))));
  });
}
