import { HostRequest } from '../protocol';

type HttpRequest = Extract<HostRequest, { kind: 'http' }>;

export interface HttpLimits {
  readonly httpTimeoutMs: number;
  readonly httpBytes: number;
}

/** Headers the host sets itself or that would reach past the declared host. */
const FORBIDDEN_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'proxy-authorization', 'upgrade']);

/**
 * `ctx.http.fetch`: HTTPS (or HTTP) to a host the manifest declares in `hosts`, nothing else; no
 * redirects followed (a redirect could leave the declared host); a time-out and a cap on the
 * response body. The answer is plain data: status, headers, body text.
 */
export async function outboundHttp(request: HttpRequest, hosts: readonly string[], limits: HttpLimits): Promise<unknown> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    throw new Error(`ctx.http.fetch: "${request.url.slice(0, 200)}" is not a URL.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('ctx.http.fetch: only http and https URLs.');
  if (url.username || url.password) throw new Error('ctx.http.fetch: credentials go in headers, not in the URL.');
  if (!hosts.includes(url.hostname.toLowerCase())) throw new Error(`ctx.http.fetch: ${url.hostname} is not among the hosts the manifest declares (${hosts.join(', ') || 'none'}).`);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (!FORBIDDEN_HEADERS.has(name.toLowerCase())) headers[name] = value;
  const response = await fetch(url, { method: request.method, headers, body: request.body ?? undefined, redirect: 'manual', signal: AbortSignal.timeout(limits.httpTimeoutMs) });
  const body = await readCapped(response, limits.httpBytes);
  return { status: response.status, headers: Object.fromEntries(response.headers), body };
}

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Error(`ctx.http.fetch: the response is over ${maxBytes} bytes.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
