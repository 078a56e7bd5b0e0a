import http from 'node:http';
import net from 'node:net';
import { Credential } from './test-server';

export interface RawResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly text: string;
  readonly json: any;
}

export interface RawRequest {
  method: string;
  /** Sent as is, bytes and all: fetch would re-encode a path or refuse a GET with a body. */
  path: string;
  headers?: Record<string, string | number>;
  body?: string | Buffer;
  /** Adds the credential as SERVICE-API-* headers. */
  auth?: Credential;
}

/** An HTTP/1.1 request through node:http, for what fetch will not send (a GET body, raw bytes in a URL). */
export function rawRequest(baseUrl: string, request: RawRequest): Promise<RawResponse> {
  const url = new URL(baseUrl);
  const headers: Record<string, string | number> = { ...request.headers };
  if (request.auth) {
    headers['SERVICE-API-USER'] = request.auth.user;
    headers['SERVICE-API-KEY'] = request.auth.key;
  }
  if (request.body !== undefined) headers['content-length'] ??= Buffer.byteLength(request.body);
  return new Promise((resolve, reject) => {
    const options = { host: url.hostname, port: url.port, method: request.method, path: request.path, headers, insecureHTTPParser: true };
    const req = http.request(options, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(request.body);
  });
}

/**
 * Sends `requests` (raw HTTP/1.1 bytes) one after another on one keep-alive TCP connection, each once
 * the previous one was answered, as a client reusing a connection does, and resolves with all the
 * server sent when it closes the connection, so the last request should say `connection: close`.
 * Rejects when that does not happen within `timeoutMs`: a connection left hanging is exactly what
 * such specs look for.
 */
export function exchangeOnOneConnection(baseUrl: string, requests: (string | Buffer)[], timeoutMs = 5000): Promise<string> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    let received = '';
    let sent = 0;
    const timer = setTimeout(() => finish(new Error(`only ${statusLines()} of ${requests.length} answers within ${timeoutMs} ms: ${received.slice(0, 500)}`)), timeoutMs);
    const statusLines = () => (received.match(/HTTP\/1\.1 \d{3} /g) ?? []).length;
    let done = false;
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(received);
    };
    socket.on('data', (data: Buffer) => {
      received += data.toString('latin1');
      if (statusLines() >= sent && sent < requests.length) socket.write(requests[sent++]);
    });
    socket.on('close', () => finish());
    socket.on('error', (error) => finish(error));
    socket.on('connect', () => socket.write(requests[sent++]));
  });
}

/** A request head plus a chunked body of `body`, for `exchangeOnOneConnection`. */
export function chunkedRequest(head: string, body: Buffer, chunkSize = 1024 * 1024): Buffer {
  const pieces: Buffer[] = [Buffer.from(`${head}\r\ntransfer-encoding: chunked\r\n\r\n`)];
  for (let offset = 0; offset < body.length; offset += chunkSize) {
    const chunk = body.subarray(offset, offset + chunkSize);
    pieces.push(Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(pieces);
}
