import { expect } from 'chai';
import { Client } from 'pg';
import { startTestServer, TestServer } from '../../support/test-server';

/**
 * PostgreSQL may end idle connections at any time (restart, failover, an administrator's
 * pg_terminate_backend). The pool reports that as an event; the process must survive it and go
 * on serving on fresh connections.
 */
describe('PostgreSQL connections ended by the server', () => {
  let server: TestServer;
  before(async function () {
    if (!/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '')) return this.skip();
    server = await startTestServer();
  });
  after(() => server?.close());

  it('keeps serving after its idle connections are terminated', async () => {
    expect((await server.request('GET', '/api/users/getListCount.json')).status).to.equal(200);
    const database = new URL(server.database.url).pathname.slice(1);
    const admin = new Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    let terminated: number;
    try {
      const result = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
      terminated = result.rowCount ?? 0;
    } finally {
      await admin.end();
    }
    expect(terminated).to.be.greaterThan(0);
    // The pool hears of the loss shortly (an unheard error event would fail this spec as uncaught);
    // a call that raced it onto a dead connection may fail, after that calls use new connections.
    const deadline = Date.now() + 2000;
    let status = 0;
    while (status !== 200 && Date.now() < deadline) {
      status = (await server.request('GET', '/api/users/getListCount.json')).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).to.equal(200);
    // And one more, so a late error event would still surface inside this spec.
    expect((await server.request('GET', '/api/users/getListCount.json')).status).to.equal(200);
  });
});
