import { createCipheriv, createDecipheriv, createHmac, getHashes, hkdfSync, randomBytes } from 'crypto';
import { TallyError } from './tally-error';

/**
 * Reversible encryption of stored secrets (gateway passwords, API keys) under the installation's
 * system key, byte-compatible with values already stored by earlier installations:
 *
 *   key        = HMAC-SHA256(key = ASCII "systemEncrypt", message = UTF-8 system key), 32 raw bytes
 *   IV         = first 16 bytes of the UTF-8 system key, NUL-padded when shorter
 *   ciphertext = AES-256-CBC with PKCS#7 padding over the UTF-8 value, standard base64
 *
 * (Checked against the reference vectors in the spec; the reverse HMAC key/message order does not
 * reproduce them.) The IV is fixed per key, so equal values encrypt equally: that is the stored
 * format, not a choice made here.
 */

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

// A decrypted value must be text; a wrong key that happens to yield valid padding gives bytes
// that are rarely UTF-8, which turns most silent garbage into the same 400.
const utf8 = new TextDecoder('utf-8', { fatal: true });

function cipherKey(systemKey: string): Buffer {
  return createHmac('sha256', 'systemEncrypt').update(systemKey, 'utf8').digest();
}

function cipherIv(systemKey: string): Buffer {
  const iv = Buffer.alloc(16);
  Buffer.from(systemKey, 'utf8').copy(iv, 0, 0, 16);
  return iv;
}

function undecryptable(): TallyError {
  return TallyError.invalid({ value: { valid: 'The value could not be decrypted.' } });
}

export function systemEncrypt(value: string, systemKey: string): string {
  const cipher = createCipheriv('aes-256-cbc', cipherKey(systemKey), cipherIv(systemKey));
  return Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]).toString('base64');
}

/** Reverses systemEncrypt; `""` (nothing stored) gives `""`; anything undecryptable is a 400. */
export function systemDecrypt(cipher: string, systemKey: string): string {
  if (cipher === '') return '';
  // Node's base64 decoder skips invalid characters silently, so the text is checked first.
  if (typeof cipher !== 'string' || !BASE64.test(cipher)) throw undecryptable();
  const bytes = Buffer.from(cipher, 'base64');
  if (bytes.length === 0 || bytes.length % 16 !== 0) throw undecryptable();
  try {
    const decipher = createDecipheriv('aes-256-cbc', cipherKey(systemKey), cipherIv(systemKey));
    return utf8.decode(Buffer.concat([decipher.update(bytes), decipher.final()]));
  } catch {
    throw undecryptable();
  }
}

// An allow-list rather than whatever OpenSSL offers: legacy and XOF digests (shake*) are not
// meaningful HMACs, and a caller's typo should be a 400, not an OpenSSL error.
const HASHES = ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'sha3-256', 'sha3-384', 'sha3-512'];
const AVAILABLE = new Set(HASHES.filter((h) => getHashes().includes(h)));

/** Hex HMAC of the value keyed by the system key: a stable, non-reversible fingerprint. */
export function systemHash(value: string, systemKey: string, algorithm = 'sha256'): string {
  if (!AVAILABLE.has(algorithm)) {
    throw TallyError.invalid({ algorithm: { valid: `The algorithm must be one of: ${[...AVAILABLE].join(', ')}.` } });
  }
  return createHmac(algorithm, systemKey).update(value, 'utf8').digest('hex');
}

/**
 * An HMAC for one of Tally's own purposes (a pay token), under a key derived from the system key
 * for that purpose alone (HKDF, the purpose as salt). encryption/systemHash answers the HMAC under
 * the system key itself of any text, to every company, so a token made that way could be made by
 * any caller of any company; no systemHash answer is this key or a MAC under it.
 */
export function purposeMac(purpose: string, value: string, systemKey: string): string {
  return createHmac('sha256', purposeKey(purpose, systemKey)).update(value, 'utf8').digest('hex');
}

/** A 32-byte key for one purpose alone, derived from a secret (HKDF-SHA-256, the purpose as salt). */
export function purposeKey(purpose: string, secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, purpose, '', 32));
}

/** A fresh system key: 32 random bytes as 64 lowercase hex characters. */
export function newSystemKey(): string {
  return randomBytes(32).toString('hex');
}
