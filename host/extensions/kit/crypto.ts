import { randomFromHost } from './bridge';

/**
 * What an extension gets for `import ... from 'node:crypto'`: random bytes (from the host's
 * generator) and UUIDs. The bundler maps `crypto` and `node:crypto` here; nothing else of Node is
 * available in the sandbox.
 */
export class RandomBytes extends Uint8Array {
  override toString(encoding: 'hex' | 'base64' | 'base64url' = 'hex'): string {
    if (encoding === 'hex') return Array.from(this, (b) => b.toString(16).padStart(2, '0')).join('');
    const base64 = toBase64(this);
    return encoding === 'base64url' ? base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') : base64;
  }
}

export function randomBytes(size: number): RandomBytes {
  if (!Number.isInteger(size) || size < 0 || size > 65536) throw new RangeError('randomBytes: size must be an integer from 0 to 65536.');
  return new RandomBytes(randomFromHost(size));
}

export function randomInt(min: number, max?: number): number {
  const [low, high] = max === undefined ? [0, min] : [min, max];
  const range = high - low;
  if (!Number.isSafeInteger(range) || range <= 0 || range > 2 ** 32) throw new RangeError('randomInt: the range must be 1 to 2^32.');
  const bytes = randomFromHost(4);
  const n = ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0;
  return low + (n % range);
}

export function randomUUID(): string {
  const b = randomFromHost(16);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = new RandomBytes(b).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const webcrypto = { getRandomValues: <T extends Uint8Array>(array: T): T => (array.set(randomFromHost(array.length)), array) };
export default { randomBytes, randomInt, randomUUID, webcrypto };

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Base64 by hand: a bare V8 isolate has no btoa or Buffer (a gateway's HTTP Basic credentials use it too). */
export function toBase64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += ALPHABET[(n >> 18) & 63] + ALPHABET[(n >> 12) & 63];
    out += i + 1 < bytes.length ? ALPHABET[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.length ? ALPHABET[n & 63] : '=';
  }
  return out;
}
