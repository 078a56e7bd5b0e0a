import { isIP } from 'node:net';
import { isPublicAddress } from '../../events/public-address';

export interface UrlPolicy {
  readonly allowHttp: boolean;
  readonly allowPrivate: boolean;
}

/**
 * Why an endpoint URL is refused, as a 400's code and message; null when it is acceptable. What a
 * name resolves to is checked each time a delivery connects (it may change); this check only
 * refuses early what can never be delivered to.
 */
export async function urlProblem(value: unknown, policy: UrlPolicy): Promise<{ code: string; message: string } | null> {
  if (typeof value !== 'string' || value.length > 2048) return { code: 'format', message: 'Please give a URL of at most 2048 characters.' };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { code: 'format', message: 'Please give a URL such as https://example.com/webhooks.' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp))
    return { code: 'https', message: policy.allowHttp ? 'The URL must start with https:// or http://.' : 'The URL must start with https:// (this installation does not allow plain HTTP).' };
  if (url.username || url.password) return { code: 'format', message: 'The URL may not hold a user name or password.' };
  if (policy.allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  // Names are not looked up here (a lookup inside the call's transaction would hold it for as long
  // as DNS takes): only addresses written in the URL and the names that always mean this machine.
  const local = host === 'localhost' || host.endsWith('.localhost') || (isIP(host) !== 0 && !isPublicAddress(host));
  if (local) return { code: 'private', message: 'The URL reaches a loopback, private or reserved address, which this installation does not allow.' };
  return null;
}
