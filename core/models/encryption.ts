import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { model } from '../kernel/model';
import { string } from '../kernel/parameter';
import { systemDecrypt, systemEncrypt, systemHash } from '../kernel/system-cipher';
import { CIPHERTEXT, HASH, PLAINTEXT } from './encryption.fields';

/** Encryption with the installation's system key, interoperable with the reference system's data. */
@model('encryption')
export class Encryption {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    description: 'Encrypt value with AES-256-CBC under a key derived (HMAC-SHA256) from the system key. Returns base64.',
    verb: 'POST',
    params: [string('value', { example: 'hello' })],
    returns: CIPHERTEXT,
  })
  systemEncrypt(value: string) {
    return systemEncrypt(value, this.ctx.systemKey);
  }

  @callable({ description: 'Reverse systemEncrypt: value is the base64 ciphertext.', verb: 'POST', params: [string('value', { example: 'hello' })], returns: PLAINTEXT })
  systemDecrypt(value: string) {
    return systemDecrypt(value, this.ctx.systemKey);
  }

  @callable({
    description: 'HMAC of value keyed with the system key (hex). algorithm: sha256 (default), sha512, sha1, md5.',
    verb: 'POST',
    params: [string('value', { example: 'hello' }), string('algorithm', { default: 'sha256' })],
    returns: HASH,
  })
  systemHash(value: string, algorithm: string) {
    return systemHash(value, this.ctx.systemKey, algorithm);
  }
}
