import { expect } from 'chai';
import { createHmac } from 'crypto';
import { newSystemKey, systemDecrypt, systemEncrypt, systemHash } from '../../../core/kernel/system-cipher';
import { TallyError } from '../../../core/kernel/tally-error';

const KEY = 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_-';

function caught(fn: () => unknown): TallyError {
  try {
    fn();
  } catch (e) {
    expect(e).to.be.instanceOf(TallyError);
    return e as TallyError;
  }
  expect.fail('expected a TallyError');
}

describe('system cipher', () => {
  describe('systemEncrypt', () => {
    it('matches the reference vectors', () => {
      expect(systemEncrypt('hello', KEY)).to.equal('Yk9V1YTOd5/fNXxQXblMLg==');
      expect(systemEncrypt('', KEY)).to.equal('jrHHN70j71Yg56w0A/HlWg==');
      expect(systemEncrypt('secret password', KEY)).to.equal('2AgxIPEUGir3rwTFB3pWCw==');
      expect(systemEncrypt('hello', 'short')).to.equal('HQuKHr1W6O5hJI3aLgkWSA==');
    });

    it('pads a 16-byte value to two blocks', () => {
      expect(Buffer.from(systemEncrypt('0123456789abcdef', KEY), 'base64')).to.have.length(32);
    });
  });

  describe('systemDecrypt', () => {
    it('reverses the reference vectors', () => {
      expect(systemDecrypt('Yk9V1YTOd5/fNXxQXblMLg==', KEY)).to.equal('hello');
      expect(systemDecrypt('jrHHN70j71Yg56w0A/HlWg==', KEY)).to.equal('');
      expect(systemDecrypt('2AgxIPEUGir3rwTFB3pWCw==', KEY)).to.equal('secret password');
      expect(systemDecrypt('HQuKHr1W6O5hJI3aLgkWSA==', 'short')).to.equal('hello');
    });

    it('gives "" for ""', () => {
      expect(systemDecrypt('', KEY)).to.equal('');
    });

    it('round-trips unicode and long values', () => {
      for (const v of ['héllo wörld', '日本語のパスワード', '🔑🧾 emoji', 'x'.repeat(1000), 'ends with NUL\u0000']) {
        expect(systemDecrypt(systemEncrypt(v, KEY), KEY)).to.equal(v);
        expect(systemDecrypt(systemEncrypt(v, 'k'), 'k')).to.equal(v);
      }
    });

    it('refuses invalid base64, bad lengths and garbage with a 400 on value', () => {
      for (const bad of ['not base64!', 'Yk9V1YTOd5/fNXxQXblMLg', 'Yk9V1YTOd5/fNXxQXblMLg=', 'aGVsbG8=', '====', 'Yk9V 1YTOd5/fNXxQXblMLg==']) {
        const e = caught(() => systemDecrypt(bad, KEY));
        expect(e.status, bad).to.equal(400);
        expect(e.errors).to.deep.equal({ value: { valid: 'The value could not be decrypted.' } });
      }
    });

    it('refuses a ciphertext whose padding does not check out', () => {
      // Flip the last byte of a real ciphertext: the padding of the final block breaks.
      const bytes = Buffer.from(systemEncrypt('hello', KEY), 'base64');
      bytes[bytes.length - 1] ^= 0xff;
      expect(caught(() => systemDecrypt(bytes.toString('base64'), KEY)).status).to.equal(400);
    });

    it('refuses a value encrypted under another key', () => {
      expect(caught(() => systemDecrypt(systemEncrypt('secret password', 'other key'), KEY)).status).to.equal(400);
    });
  });

  describe('systemHash', () => {
    it('is the hex HMAC of the value keyed by the system key', () => {
      expect(systemHash('hello', KEY)).to.equal(createHmac('sha256', KEY).update('hello').digest('hex'));
      expect(systemHash('hello', KEY)).to.match(/^[0-9a-f]{64}$/);
      expect(systemHash('hello', KEY, 'sha512')).to.match(/^[0-9a-f]{128}$/);
      expect(systemHash('hello', KEY, 'sha1')).to.equal(createHmac('sha1', KEY).update('hello').digest('hex'));
    });

    it('depends on both the value and the key', () => {
      expect(systemHash('hello', KEY)).to.not.equal(systemHash('hellp', KEY));
      expect(systemHash('hello', KEY)).to.not.equal(systemHash('hello', 'short'));
    });

    it('refuses an unknown algorithm with a 400 on algorithm', () => {
      for (const alg of ['sha999', '', 'SHA256 ', 'shake256']) {
        const e = caught(() => systemHash('hello', KEY, alg));
        expect(e.status).to.equal(400);
        expect(e.errors).to.have.property('algorithm').with.property('valid');
      }
    });
  });

  describe('newSystemKey', () => {
    it('gives 64 lowercase hex characters, different each time', () => {
      const a = newSystemKey();
      const b = newSystemKey();
      expect(a).to.match(/^[0-9a-f]{64}$/);
      expect(b).to.match(/^[0-9a-f]{64}$/);
      expect(a).to.not.equal(b);
    });

    it('works as a system key', () => {
      const key = newSystemKey();
      expect(systemDecrypt(systemEncrypt('hello', key), key)).to.equal('hello');
    });
  });
});
