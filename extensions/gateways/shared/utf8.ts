/** UTF-8 bytes of a string (the sandbox has no TextEncoder): what an HMAC or HTTP Basic credentials are made of. */
export function utf8(text: string): Uint8Array {
  const binary = unescape(encodeURIComponent(text));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
