import { expect } from 'chai';
import { Db } from '../../../core/db/schema';
import { CallContext } from '../../../core/kernel/call-context';
import { callable } from '../../../core/kernel/callable';
import { model } from '../../../core/kernel/model';
import { classEntry } from '../../../core/kernel/model-entry';
import { startTestServer, TestServer } from '../../support/test-server';

/** What countTwice waits for between its two reads. */
let between: () => Promise<unknown> = async () => undefined;

/** A method declared for GET that writes anyway, next to the same write declared for POST. */
@model('spec_sneaky_writer')
class SneakyWriter {
  constructor(private readonly ctx: CallContext) {}

  @callable({ verb: 'GET' })
  async read() {
    return this.write();
  }

  /** Counts companies, waits until `between` has run, counts again: what one GET call's two statements see. */
  @callable({ verb: 'GET' })
  async countTwice() {
    const count = async () => (await this.ctx.db.selectFrom('companies').select('id').execute()).length;
    const first = await count();
    await between();
    return [first, await count()];
  }

  /** A GET method that tries to open a transaction of its own. */
  @callable({ verb: 'GET' })
  async nested() {
    return (this.ctx.db as Db).transaction().execute(async () => 'ran');
  }

  @callable({ verb: 'POST' })
  async write() {
    await this.ctx.db.insertInto('companies').values({ name: 'written', hostname: null, date_added: '2026-01-01 00:00:00' }).execute();
    return 'written';
  }
}

describe('methods declared for GET', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    server.installation.addModel(classEntry(SneakyWriter));
  });
  after(() => server.close());

  const companies = async () => (await server.installation.db.selectFrom('companies').select('id').execute()).length;

  it('refuse a write: a write in one fails the call and writes nothing, on either database', async () => {
    const before = await companies();
    const res = await server.request('GET', '/api/spec_sneaky_writer/read.json');
    expect(res.status).to.equal(500);
    expect(await companies()).to.equal(before);
  });

  it('leave other calls free to write, also after a refused one', async () => {
    const before = await companies();
    await server.request('GET', '/api/spec_sneaky_writer/read.json');
    const res = await server.request('POST', '/api/spec_sneaky_writer/write.json');
    expect(res.json).to.deep.equal({ response: 'written' });
    expect(await companies()).to.equal(before + 1);
  });

  it('read as READ COMMITTED, statement by statement: a write committed between two reads is seen by the second, on either database', async () => {
    const before = await companies();
    between = () => server.request('POST', '/api/spec_sneaky_writer/write.json');
    try {
      const res = await server.request('GET', '/api/spec_sneaky_writer/countTwice.json');
      expect(res.json).to.deep.equal({ response: [before, before + 1] });
    } finally {
      between = async () => undefined;
    }
  });

  it('open no transaction of their own: the call fails and the server goes on', async () => {
    const res = await server.request('GET', '/api/spec_sneaky_writer/nested.json');
    expect(res.status).to.equal(500);
    expect((await server.request('GET', '/api/users/getListCount.json')).status).to.equal(200);
  });
});
