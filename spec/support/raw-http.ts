import http from 'node:http';
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
    const req = http.request({ host: url.hostname, port: url.port, method: request.method, path: request.path, headers, insecureHTTPParser: true }, (res) => {
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
