import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { SYSTEM_COMPANY } from '../../../core/settings-catalogue';
import { startTestServer, TestServer } from '../../support/test-server';

// DESIGN.md section 4: data encrypted by the reference system must decrypt here, and back.
const REFERENCE_KEY = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_-';
const VECTORS: [systemKey: string, plain: string, cipher: string][] = [
  [REFERENCE_KEY, 'hello', 'Yk9V1YTOd5/fNXxQXblMLg=='],
  [REFERENCE_KEY, '', 'jrHHN70j71Yg56w0A/HlWg=='],
  [REFERENCE_KEY, 'secret password', '2AgxIPEUGir3rwTFB3pWCw=='],
  ['short', 'hello', 'HQuKHr1W6O5hJI3aLgkWSA=='],
];

describe('encryption over HTTP', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  /** The test server caches nothing (cacheTtlMs 0), so the next call sees the new key. */
  const useSystemKey = (key: string) => server.installation.db.updateTable('settings').set({ value: key }).where('company_id', '=', SYSTEM_COMPANY).where('key', '=', 'system_key').execute();
  const post = (method: string, params: Record<string, string>) => server.request('POST', `/api/encryption/${method}.json`, { body: new URLSearchParams(params).toString() });

  for (const [systemKey, plain, cipher] of VECTORS) {
    it(`systemEncrypt(${JSON.stringify(plain)}) with system key ${systemKey.slice(0, 5)}… gives ${cipher}`, async () => {
      await useSystemKey(systemKey);
      expect((await post('systemEncrypt', { value: plain })).json).to.deep.equal({ response: cipher });
    });

    it(`systemDecrypt(${cipher}) gives ${JSON.stringify(plain)}`, async () => {
      await useSystemKey(systemKey);
      expect((await post('systemDecrypt', { value: cipher })).json).to.deep.equal({ response: plain });
    });
  }

  it('decrypts "" to ""', async () => {
    expect((await post('systemDecrypt', { value: '' })).json).to.deep.equal({ response: '' });
  });

  it("round-trips text of every kind with the installation's own key", async () => {
    await useSystemKey('0123456789abcdef'.repeat(4));
    for (const text of ['zürich ✓ 😀', 'a+b/c=d&e', ' '.repeat(33), 'x'.repeat(5000)]) {
      const cipher = (await post('systemEncrypt', { value: text })).json.response;
      expect((await post('systemDecrypt', { value: cipher })).json.response).to.equal(text);
    }
  });

  for (const garbage of ['not base64 at all!', 'AAAA', 'Yk9V1YTOd5/fNXxQXblMLg', '////////////////////////////////////////////']) {
    it(`answers 400 value.valid to systemDecrypt(${JSON.stringify(garbage)})`, async () => {
      await useSystemKey(REFERENCE_KEY);
      const res = await post('systemDecrypt', { value: garbage });
      expect(res.status).to.equal(400);
      expect(res.json).to.deep.equal({
        message: 'The request cannot be fulfilled due to bad syntax.',
        errors: { value: { valid: 'The value could not be decrypted.' } },
      });
    });
  }

  it('systemHash is the hex HMAC of the value keyed by the system key (sha256 by default)', async () => {
    await useSystemKey(REFERENCE_KEY);
    const expected = (algorithm: string) => createHmac(algorithm, REFERENCE_KEY).update('hello', 'utf8').digest('hex');
    expect((await post('systemHash', { value: 'hello' })).json.response).to.equal(expected('sha256'));
    expect((await post('systemHash', { value: 'hello', algorithm: 'sha512' })).json.response).to.equal(expected('sha512'));
  });

  it('systemHash refuses an unknown algorithm with a 400', async () => {
    const res = await post('systemHash', { value: 'hello', algorithm: 'rot13' });
    expect(res.status).to.equal(400);
    expect(res.json.errors.algorithm).to.have.property('valid');
  });

  it('requires the value', async () => {
    const res = await post('systemEncrypt', {});
    expect(res.status).to.equal(400);
    expect(res.json.errors.value).to.have.property('empty');
  });
});
