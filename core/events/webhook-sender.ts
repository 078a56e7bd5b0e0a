import dns, { LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, LookupFunction } from 'node:net';
import { isPublicAddress } from './public-address';

export interface SendLimits {
  /** The whole request, connect to last byte read, must finish in this time. */
  readonly timeoutMs: number;
  /** At most this much of an answer is read; a longer one is cut off (and the connection closed). */
  readonly maxResponseBytes: number;
  /** Loopback and private addresses may be reached (tests, on-premises receivers). */
  readonly allowPrivate: boolean;
}

export interface SendResult {
  /** The receiver's status; null when no answer came. */
  readonly status: number | null;
  /** Why it failed without an answer, or why an answer is not a success (a redirect). */
  readonly error: string | null;
  /** The first bytes of the answer, as text (at most RESPONSE_KEPT). */
  readonly response: string;
  readonly durationMs: number;
}

/** How much of an answer is kept in the attempt log. */
export const RESPONSE_KEPT = 1024;

class BlockedAddress extends Error {}

/**
 * Resolves, checks every address and hands the connection only the checked ones: the address
 * connected to is the address checked, so a name that resolves to a public address for a check
 * and a private one for the connection (DNS rebinding) reaches nothing.
 */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, '', 4);
      const refused = allowPrivate ? undefined : addresses.find((a) => !isPublicAddress(a.address));
      if (refused || !addresses.length) return callback(new BlockedAddress(`${hostname} resolves to a non-public address`) as NodeJS.ErrnoException, '', 4);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/**
 * Sends webhook requests: POST only, no redirects followed (Node's client never follows them),
 * connections kept alive per receiver, every connection's address checked as it is made.
 */
export class WebhookSender {
  private readonly agents = new Map<string, http.Agent>();

  async send(url: string, headers: Record<string, string>, body: string, limits: SendLimits): Promise<SendResult> {
    const started = performance.now();
    const result = (status: number | null, error: string | null, response = '') => ({ status, error, response, durationMs: Math.round(performance.now() - started) });
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return result(null, 'invalid URL');
    }
    // An address in the URL is never looked up: checked here instead.
    const literal = target.hostname.replace(/^\[|\]$/g, '');
    if (isIP(literal) && !limits.allowPrivate && !isPublicAddress(literal)) return result(null, 'non-public address refused');
    const client = target.protocol === 'https:' ? https : http;
    return new Promise<SendResult>((resolve) => {
      let settled = false;
      const finish = (value: SendResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve(value);
      };
      const request = client.request(
        target,
        { method: 'POST', agent: this.agent(target.protocol, limits.allowPrivate), headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (response) => {
          const chunks: Buffer[] = [];
          let size = 0;
          const done = (cut: boolean) => {
            const text = Buffer.concat(chunks).subarray(0, RESPONSE_KEPT).toString('utf8');
            const status = response.statusCode ?? null;
            const redirect = status !== null && status >= 300 && status < 400 ? 'redirect not followed' : null;
            finish(result(status, redirect ?? (cut ? 'answer cut off at the size limit' : null), text));
          };
          response.on('data', (chunk: Buffer) => {
            if (size < RESPONSE_KEPT) chunks.push(chunk);
            size += chunk.length;
            if (size > limits.maxResponseBytes) {
              done(true);
              response.destroy();
            }
          });
          response.on('end', () => done(false));
          response.on('error', () => done(true));
        },
      );
      const deadline = setTimeout(() => {
        finish(result(null, `timed out after ${limits.timeoutMs} ms`));
        request.destroy();
      }, limits.timeoutMs);
      request.on('error', (error) => finish(result(null, error instanceof BlockedAddress ? 'non-public address refused' : describe(error))));
      request.end(body);
    });
  }

  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }

  private agent(protocol: string, allowPrivate: boolean): http.Agent {
    const key = `${protocol}${allowPrivate}`;
    let agent = this.agents.get(key);
    if (!agent) {
      const options = { keepAlive: true, maxSockets: 16, lookup: guardedLookup(allowPrivate) };
      agent = protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
      this.agents.set(key, agent);
    }
    return agent;
  }
}

function describe(error: NodeJS.ErrnoException): string {
  // The code says enough (ECONNREFUSED, ENOTFOUND, CERT_HAS_EXPIRED); messages may be long.
  return (error.code ?? error.message).slice(0, 255);
}
