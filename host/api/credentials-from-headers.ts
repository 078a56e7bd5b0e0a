import { IncomingHttpHeaders } from 'node:http';

export interface GivenCredentials {
  readonly user: string;
  readonly key: string;
}

/**
 * Header authentication (`SERVICE-API-USER`/`SERVICE-API-KEY`, any case) when the key header is
 * present, else HTTP Basic (user = API user, password = API key; the key may contain `:`).
 * Header mode comes first because Basic auth is often stripped by FastCGI and proxies.
 */
export function credentialsFromHeaders(headers: IncomingHttpHeaders): GivenCredentials | null {
  const key = headers['service-api-key'];
  if (key !== undefined) {
    const user = headers['service-api-user'];
    return { user: String(user ?? ''), key: String(key) };
  }
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(headers.authorization ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return null;
  return { user: decoded.slice(0, colon), key: decoded.slice(colon + 1) };
}
