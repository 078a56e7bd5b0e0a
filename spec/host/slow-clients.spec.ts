import net from 'node:net';
import { expect } from 'chai';
import { assembleInstallation } from '../../host/assemble-installation';
import { createLogger } from '../../host/logger';
import { RunningServer, serve } from '../../host/server';
import { EXPECTATION_FAILED } from '../../host/client-error';
import { createTestDatabase, TestDatabase } from '../support/test-database';

/** Sends `chunks` one by one, `gapMs` apart, and answers what came back and when the server closed. */
function trickle(port: number, chunks: string[], gapMs: number): Promise<{ text: string; closedAfterMs: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let timer: NodeJS.Timeout | undefined;
    socket.on('data', (chunk) => (text += chunk.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closedAfterMs: Date.now() - started });
    });
    const next = (i: number) => {
      if (i >= chunks.length || socket.destroyed) return;
      socket.write(chunks[i]);
      timer = setTimeout(() => next(i + 1), gapMs);
    };
    socket.on('connect', () => next(0));
  });
}

describe('slow and odd clients', function () {
  this.timeout(30_000);
  let database: TestDatabase;
  let server: RunningServer;
  before(async () => {
    database = await createTestDatabase();
    const installation = await assembleInstallation({ databaseUrl: database.url });
    server = await serve({ installation, port: 0, host: '127.0.0.1', logger: createLogger('silent'), limits: { headersTimeoutMs: 1000, requestTimeoutMs: 2000, maxConnections: 20 } });
  });
  after(async () => {
    await server?.close();
    await database?.drop();
  });

  it('answers 408 in JSON and closes a connection whose headers do not arrive in time', async () => {
    const headerBytes = 'GET /health HTTP/1.1\r\nHost: x\r\n'.split('');
    const result = await trickle(server.port, headerBytes, 200);
    expect(result.closedAfterMs).to.be.within(900, 3500);
    expect(result.text).to.match(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(result.text.split('\r\n\r\n')[1])).to.have.property('message');
  });

  it('closes a connection whose body does not arrive within the request time-out', async () => {
    const head = 'POST /api/users/getList.json HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n';
    const result = await trickle(server.port, [head, ...'a=1&b=2&c=3&d=4&'.split('')], 300);
    expect(result.closedAfterMs).to.be.within(1500, 4500);
  });

  it('refuses connections past the cap at once, and serves again when the slow ones are cut', async () => {
    const hogs = Array.from({ length: 20 }, () => trickle(server.port, ['GET /health HTTP/1.1\r\n', 'Host: x\r\n'], 5000));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const extra = await trickle(server.port, ['GET /health HTTP/1.1\r\nHost: x\r\n\r\n'], 10);
    expect(extra.text).to.equal('');
    expect(extra.closedAfterMs).to.be.below(500);
    await Promise.all(hogs);
    expect((await fetch(`${server.url.replace('localhost', '127.0.0.1')}/health`)).status).to.equal(200);
  });

  it("answers an unknown Expect header with 417 and the contract's JSON error object", async () => {
    const result = await trickle(server.port, ['POST /api/users/getList.json HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\nContent-Length: 0\r\n\r\n'], 10);
    expect(result.text).to.match(/^HTTP\/1\.1 417 /);
    expect(result.text).to.match(/content-type: application\/json/i);
    expect(JSON.parse(result.text.split('\r\n\r\n')[1])).to.deep.equal({ message: EXPECTATION_FAILED });
  });
});
