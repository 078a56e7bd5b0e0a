import { expect } from 'chai';
import { rawRequest } from './raw-http';
import { installSpecProbe } from './spec-models';
import { startTestServer, TestServer } from './test-server';

export const BAD_SYNTAX = 'The request cannot be fulfilled due to bad syntax.';

export interface Answer {
  readonly status: number;
  readonly json: any;
}

/**
 * A test server with the probe model, and ways to send the same parameters to `spec_probe/echo`
 * in every encoding the API reads. The bad-input specs use it to see what arrives, or what is refused.
 */
export async function startEchoServer() {
  const server: TestServer = await startTestServer();
  installSpecProbe(server.installation);
  const path = '/api/spec_probe/echo.json';
  const headers = { 'SERVICE-API-USER': server.credential.user, 'SERVICE-API-KEY': server.credential.key };
  return {
    server,
    query: (q: string): Promise<Answer> => server.request('GET', `${path}?${q}`),
    form: (body: string): Promise<Answer> => server.request('POST', path, { body }),
    json: (body: string | Buffer): Promise<Answer> => rawRequest(server.url, { method: 'POST', path, headers: { 'content-type': 'application/json' }, body, auth: server.credential }),
    async multipart(fields: [string, string][]): Promise<Answer> {
      const data = new FormData();
      for (const [name, value] of fields) data.append(name, value);
      const res = await fetch(server.url + path, { method: 'POST', headers, body: data });
      return { status: res.status, json: await res.json() };
    },
    /** After a barrage: the server still answers, and nothing reached Object.prototype. */
    async closeAfterChecking(): Promise<void> {
      expect((await server.request('GET', '/api/users/getListCount.json')).status).to.equal(200);
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
      await server.close();
    },
  };
}

export type EchoServer = Awaited<ReturnType<typeof startEchoServer>>;

/** A contract 400 with `errors[name][code]`. */
export function expect400(res: Answer, name: string, code: string): void {
  expect(res.status, JSON.stringify(res.json)).to.equal(400);
  expect(res.json.message).to.equal(BAD_SYNTAX);
  expect(res.json.errors, JSON.stringify(res.json.errors)).to.have.property(name).that.has.property(code);
}
