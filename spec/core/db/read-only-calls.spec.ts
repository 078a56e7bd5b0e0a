import { expect } from 'chai';
import { CallContext } from '../../../core/kernel/call-context';
import { callable } from '../../../core/kernel/callable';
import { model } from '../../../core/kernel/model';
import { classEntry } from '../../../core/kernel/model-entry';
import { startTestServer, TestServer } from '../../support/test-server';

/** A method declared for GET that writes anyway, next to the same write declared for POST. */
@model('spec_sneaky_writer')
class SneakyWriter {
  constructor(private readonly ctx: CallContext) {}

  @callable({ verb: 'GET' })
  async read() {
    return this.write();
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

  it('run in a read-only transaction: a write in one fails the call and writes nothing, on either database', async () => {
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
});
