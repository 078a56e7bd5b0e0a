import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { HostRequest } from '../protocol';
import { isDeclared } from './declared-hosts';
import { isPublicAddress } from './public-address';

type HttpRequest = Extract<HostRequest, { kind: 'http' }>;

export interface HttpLimits {
  readonly httpTimeoutMs: number;
  readonly httpBytes: number;
  /** Declared hosts answered by a stand-in server (TALLY_GATEWAY_TEST_HOSTS; tests only). */
  readonly testHosts?: ReadonlyMap<string, string>;
}

/** Headers the host sets itself or that would reach past the declared host. */
const FORBIDDEN_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'proxy-authorization', 'upgrade']);

/**
 * `ctx.http.fetch`: HTTPS (or HTTP) to a host and port the manifest declares in `hosts`, nothing
 * else; no redirects followed (a redirect could leave the declared host); a time-out and a cap on
 * the response body. A declared name must resolve to public addresses only, checked on the very
 * addresses the connection then uses (so a name that answers a public address to a first look-up
 * and 127.0.0.1 to the next gains nothing): a manifest reaches this machine or a private network
 * only by declaring that address itself, where the installer sees it. The answer is plain data:
 * status, headers, body text.
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
  if (!isDeclared(url, hosts)) throw new Error(`ctx.http.fetch: ${url.host} is not among the hosts and ports the manifest declares (${hosts.join(', ') || 'none'}).`);
  // Checked against the manifest first: a stand-in answers only for a host the extension may reach.
  const standIn = limits.testHosts?.get(url.host.toLowerCase());
  if (standIn) url = new URL(url.pathname + url.search, standIn);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (!FORBIDDEN_HEADERS.has(name.toLowerCase())) headers[name] = value;
  const transport = url.protocol === 'https:' ? https : http;
  const signal = AbortSignal.timeout(limits.httpTimeoutMs);
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const outgoing = transport.request(url, { method: request.method, headers, signal, agent: false, lookup: isIP(url.hostname) ? undefined : publicOnly }, resolve);
    outgoing.on('error', (error) => reject(signal.aborted ? new Error(`ctx.http.fetch: no answer within ${limits.httpTimeoutMs} ms.`) : error));
    outgoing.end(request.body ?? undefined);
  });
  const body = await readCapped(decoded(response), limits.httpBytes, signal);
  const answerHeaders: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) answerHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
  return { status: response.statusCode, headers: answerHeaders, body };
}

/** Resolves a declared name, refusing it when any of its addresses is not public. */
const publicOnly: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const hidden = addresses.find((a) => !isPublicAddress(a.address)) ?? (addresses.length ? undefined : { address: 'nothing', family: 0 });
    if (hidden) {
      const refused = Object.assign(
        new Error(
          `ctx.http.fetch: ${hostname} resolves to ${hidden.address}, which is not a public address; a manifest reaches this machine or a private network only by declaring the address itself.`,
        ),
        { code: 'ENOTPUBLIC' },
      );
      return callback(refused, '', 0);
    }
    if ((options as dns.LookupOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};

/** The body as the server meant it: fetch undid gzip, deflate and brotli, and extensions rely on that. */
function decoded(response: http.IncomingMessage): Readable {
  switch ((response.headers['content-encoding'] ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return response.pipe(zlib.createGunzip());
    case 'deflate':
      return response.pipe(zlib.createInflate());
    case 'br':
      return response.pipe(zlib.createBrotliDecompress());
    default:
      return response;
  }
}

/** Reads the body up to the cap, counted after decoding (a small compressed body can unpack to gigabytes). */
async function readCapped(body: Readable, maxBytes: number, signal: AbortSignal): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) throw new Error(`ctx.http.fetch: the response is over ${maxBytes} bytes.`);
      chunks.push(chunk);
    }
  } catch (error) {
    body.destroy();
    throw signal.aborted ? new Error('ctx.http.fetch: the response did not end in time.') : error;
  }
  return Buffer.concat(chunks).toString('utf8');
}
