import { strict as assert } from 'node:assert';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DpopKey } from '../../src/auth/dpop';
import { NotSetUpError } from '../../src/auth/errors';
import type { Logger } from '../../src/api/runtime';
import { createAttestation, defaultMachineFile, identityFileExposure, readMachineIdentity } from '../../src/auth/machine';
import { makeWorld } from '../kit';

async function tmp(): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), 'ac-machine-'));
}

async function identity(dir: string) {
  const { privateJwk } = await DpopKey.generate();
  const id = { id: 'mch_test-1', name: 'laptop', baseUrl: 'http://127.0.0.1:9', privateJwk };
  const file = path.join(dir, 'machine.json');
  await fs.writeFile(file, JSON.stringify(id));
  return { id, file };
}

describe('auth: computer identity and attestation', () => {
  it('default paths follow DESIGN on Linux, macOS and Windows', () => {
    assert.equal(defaultMachineFile('linux', {}, '/home/ann'), '/home/ann/.config/assistant-cards/machine.json');
    assert.equal(defaultMachineFile('darwin', {}, '/Users/ann'), '/Users/ann/.config/assistant-cards/machine.json');
    assert.equal(defaultMachineFile('win32', { APPDATA: 'C:\\Users\\ann\\AppData\\Roaming' }, 'C:\\Users\\ann'),
      'C:\\Users\\ann\\AppData\\Roaming\\assistant-cards\\machine.json');
    assert.equal(defaultMachineFile('win32', {}, 'C:\\Users\\ann'), 'C:\\Users\\ann\\AppData\\Roaming\\assistant-cards\\machine.json');
  });

  it('a missing file is NotSetUpError "missing" with what to do', async () => {
    const dir = await tmp();
    await assert.rejects(readMachineIdentity(path.join(dir, 'nope.json')), (e: unknown) => {
      assert.ok(e instanceof NotSetUpError);
      assert.equal(e.reason, 'missing');
      assert.match(e.message, /This computer is not set up/);
      assert.match(e.whatToDo, /assistantCards\.machineFile/);
      return true;
    });
  });

  it('an unreadable file (a folder) and a non-JSON or wrong-shaped file are told apart', async () => {
    const dir = await tmp();
    await assert.rejects(readMachineIdentity(dir), (e: unknown) => e instanceof NotSetUpError && e.reason === 'unreadable');
    const bad = path.join(dir, 'bad.json');
    await fs.writeFile(bad, 'not json');
    await assert.rejects(readMachineIdentity(bad), (e: unknown) => e instanceof NotSetUpError && e.reason === 'invalid');
    await fs.writeFile(bad, JSON.stringify({ id: 'nope', name: 'x' }));
    await assert.rejects(readMachineIdentity(bad), (e: unknown) => e instanceof NotSetUpError && e.reason === 'invalid' && /id/.test(e.message));
  });

  it('the attestation is an ES256 JWS of DESIGN: typ, kid, iss, aud, jkt, iat, exp <= iat + 300, jti', async () => {
    const dir = await tmp();
    const { id, file } = await identity(dir);
    const read = await readMachineIdentity(file);
    assert.equal(read.id, id.id);
    const { key } = await DpopKey.generate();
    const jws = await createAttestation(read, { baseUrl: 'http://127.0.0.1:9', jkt: key.thumbprint, nowSeconds: 2_000_000_000 });
    const [h, p] = jws.split('.');
    const header = JSON.parse(Buffer.from(h!, 'base64url').toString());
    const claims = JSON.parse(Buffer.from(p!, 'base64url').toString());
    assert.deepEqual(header, { alg: 'ES256', typ: 'machine-attestation+jwt', kid: 'mch_test-1' });
    assert.equal(claims.iss, 'mch_test-1');
    assert.equal(claims.aud, 'http://127.0.0.1:9');
    assert.equal(claims.jkt, key.thumbprint);
    assert.equal(claims.iat, 2_000_000_000);
    assert.ok(claims.exp - claims.iat <= 300 && claims.exp > claims.iat);
    assert.ok(claims.jti);
  });
});

describe('auth: an identity file others can read is pointed out', () => {
  const posix = process.platform !== 'win32';

  it('mode & 0o077 set: a warning naming the file and saying chmod 600; private: none', async function () {
    if (!posix) this.skip();
    const { file } = await identity(await tmp());
    await fs.chmod(file, 0o644);
    const warning = await identityFileExposure(file);
    assert.ok(warning, 'a group/other-readable identity file is reported');
    assert.ok(warning.includes(file));
    assert.match(warning, /chmod 600/);
    assert.match(warning, /644/);
    await fs.chmod(file, 0o640);
    assert.ok(await identityFileExposure(file), 'group-readable alone is reported too');
    await fs.chmod(file, 0o600);
    assert.equal(await identityFileExposure(file), undefined);
    assert.equal(await identityFileExposure(path.join(path.dirname(file), 'absent.json')), undefined);
  });

  it('the client core logs the warning when it reads an exposed identity file', async function () {
    if (!posix) this.skip();
    const w = await makeWorld({ me: false });
    try {
      await fs.chmod(w.machineFile, 0o604);
      const warnings: string[] = [];
      const logger: Logger = { info() {}, warn: (m) => warnings.push(m), error() {} };
      const core = w.core({ logger });
      await core.start();
      assert.ok(warnings.some((m) => m.includes(w.machineFile) && /chmod 600/.test(m)), warnings.join('\n'));
    } finally {
      await w.close();
    }
  });
});
