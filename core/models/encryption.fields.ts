import { string } from '../kernel/shape';

/** The answers of encryption/* (see `@callable({ returns })` in encryption.ts). */
export const CIPHERTEXT = string({ format: 'base64', description: 'AES-256-CBC ciphertext, standard base64.' });
export const PLAINTEXT = string({ description: 'The decrypted text.' });
export const HASH = string({ format: 'hex', description: 'The HMAC, lowercase hex.' });
