import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileLock } from '../../src/auth/file-lock';
import { athOf, DpopKey, htuOf } from '../../src/auth/dpop';

const DPOP_KEY_SECRET = 'test.dpopKey';
import { jose } from '../../src/auth/jose';
import { MemorySecretStore } from '../../src/auth/secret-store';

function decode(jwt: string) {
  const [h, p] = jwt.split('.');
  return { header: JSON.parse(Buffer.from(h!, 'base64url').toString()), claims: JSON.parse(Buffer.from(p!, 'base64url').toString()) };
}

describe('auth: DPoP key and proofs', () => {
  it('the thumbprint is RFC 7638 over the required EC members in order', async () => {
    const { key } = await DpopKey.generate();
    const j = key.publicJwk;
    const expected = createHash('sha256').update(`{"crv":"P-256","kty":"EC","x":"${j.x}","y":"${j.y}"}`).digest('base64url');
    assert.equal(key.thumbprint, expected);
  });

  it('a proof has typ dpop+jwt, ES256, the public jwk only, and the claims of RFC 9449', async () => {
    const { key } = await DpopKey.generate();
    const jwt = await key.proof({ htm: 'get', url: 'https://svc.example/v1/cards?status=pending#x', accessToken: 'tok-123', nonce: 'n-1', iat: 1_900_000_000 });
    const { header, claims } = decode(jwt);
    assert.equal(header.typ, 'dpop+jwt');
    assert.equal(header.alg, 'ES256');
    assert.deepEqual(Object.keys(header.jwk).sort(), ['crv', 'kty', 'x', 'y']);
    assert.equal(header.jwk.d, undefined);
    assert.equal(claims.htm, 'GET');
    assert.equal(claims.htu, 'https://svc.example/v1/cards');
    assert.equal(claims.iat, 1_900_000_000);
    assert.equal(claims.nonce, 'n-1');
    assert.equal(claims.ath, createHash('sha256').update('tok-123').digest('base64url'));
    assert.match(claims.jti, /^[0-9a-f-]{36}$/);
    const { jwtVerify, importJWK } = await jose();
    const pub = await importJWK(header.jwk, 'ES256');
    await jwtVerify(jwt, pub, { typ: 'dpop+jwt' }); // throws when the signature is wrong
  });

  it('every proof gets a new jti; no nonce and no ath when not given', async () => {
    const { key } = await DpopKey.generate();
    const a = decode(await key.proof({ htm: 'POST', url: 'http://127.0.0.1:1/oauth/token', iat: 1 })).claims;
    const b = decode(await key.proof({ htm: 'POST', url: 'http://127.0.0.1:1/oauth/token', iat: 1 })).claims;
    assert.notEqual(a.jti, b.jti);
    assert.equal(a.nonce, undefined);
    assert.equal(a.ath, undefined);
  });

  it('htu keeps scheme, host, port and path only; ath is base64url sha-256', () => {
    assert.equal(htuOf('http://127.0.0.1:8080/v1/changes?after=x&wait=25'), 'http://127.0.0.1:8080/v1/changes');
    assert.equal(athOf('abc'), 'ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
  });

  it('the key is kept in the secret store and reused; a damaged one is replaced', async () => {
    const store = new MemorySecretStore();
    const k1 = await DpopKey.loadOrCreate(store, DPOP_KEY_SECRET);
    const k2 = await DpopKey.loadOrCreate(store, DPOP_KEY_SECRET);
    assert.equal(k1.thumbprint, k2.thumbprint);
    const stored = JSON.parse((await store.get(DPOP_KEY_SECRET))!);
    assert.equal(stored.kty, 'EC');
    assert.ok(stored.d, 'the private JWK is what the store keeps');
    await store.store(DPOP_KEY_SECRET, '{not json');
    const k3 = await DpopKey.loadOrCreate(store, DPOP_KEY_SECRET);
    assert.notEqual(k3.thumbprint, k1.thumbprint);
  });
});

describe('auth: one key for every window', () => {
  it('windows starting at once over one store with the shared lock end with the same key', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ac-key-'));
    const store = new MemorySecretStore();
    const keys = await Promise.all(Array.from({ length: 5 }, () => DpopKey.loadOrCreate(store, DPOP_KEY_SECRET, FileLock.in(dir, 'refresh'))));
    assert.equal(new Set(keys.map((k) => k.thumbprint)).size, 1);
  });
});
