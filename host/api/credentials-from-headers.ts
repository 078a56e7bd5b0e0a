import { IncomingHttpHeaders } from 'node:http';

export interface GivenCredentials {
  readonly user: string;
  readonly key: string;
}

/**
 * The header pairs read, in order: the contract's, then the one the reference's current SDKs send
 * (since its 5.11), so those SDKs work unchanged. Node lower-cases header names.
 */
const HEADER_PAIRS = [
  ['service-api-user', 'service-api-key'],
  ['blesta-api-user', 'blesta-api-key'],
] as const;

/**
 * Header authentication (either pair, any case) when a key header is present, else HTTP Basic
 * (user = API user, password = API key; the key may contain `:`). Header mode comes first because
 * Basic auth is often stripped by FastCGI and proxies.
 */
export function credentialsFromHeaders(headers: IncomingHttpHeaders): GivenCredentials | null {
  for (const [userHeader, keyHeader] of HEADER_PAIRS) {
    const key = headers[keyHeader];
    if (key !== undefined) return { user: String(headers[userHeader] ?? ''), key: String(key) };
  }
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(headers.authorization ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return null;
  return { user: decoded.slice(0, colon), key: decoded.slice(colon + 1) };
}
