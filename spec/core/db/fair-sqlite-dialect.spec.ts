import { expect } from 'chai';
import { CallContext } from '../../../core/kernel/call-context';
import { callable } from '../../../core/kernel/callable';
import { model } from '../../../core/kernel/model';
import { classEntry } from '../../../core/kernel/model-entry';
import { SettingsStore } from '../../../core/settings-store';
import { startTestServer, TestServer } from '../../support/test-server';

/** A model that uses the installation's database, not its call's transaction. */
@model('spec_outside_query')
class OutsideQuery {
  constructor(
    private readonly ctx: CallContext,
    private readonly settings: SettingsStore,
  ) {}

  @callable({ verb: 'GET' })
  async read() {
    return this.settings.get(this.ctx.companyId, 'timezone');
  }

  /** Writes in its transaction, then another row outside it. */
  @callable({ verb: 'POST' })
  async write() {
    await this.settings.set(this.ctx.companyId, 'timezone', 'Europe/Paris', this.ctx.db);
    await this.settings.set(this.ctx.companyId, 'spec_outside', 'written');
    return 'written';
  }
}

describe('a query outside the call transaction', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ sqliteWaitMs: 300 });
    server.installation.addModel(classEntry(OutsideQuery));
  });
  after(() => server.close());

  it('reads what is committed, from a GET call, on either database (SQLite reads on a connection of its own)', async () => {
    const res = await server.request('GET', '/api/spec_outside_query/read.json');
    expect(res.json).to.deep.equal({ response: 'UTC' });
  });

  it('waits for the write connection its own call holds only a bounded time on SQLite, instead of stalling the server forever, and works on PostgreSQL', async function () {
    this.timeout(5000);
    const res = await server.request('POST', '/api/spec_outside_query/write.json');
    if (server.installation.connection.dialect === 'sqlite') {
      expect(res.status).to.equal(500);
      expect(res.json).to.deep.equal({ message: 'An unexpected error occured.' });
      // Nothing of the call was kept.
      expect((await server.request('GET', '/api/spec_outside_query/read.json')).json).to.deep.equal({ response: 'UTC' });
    } else {
      expect(res.json).to.deep.equal({ response: 'written' });
    }
    expect((await server.request('GET', '/api/users/getListCount.json')).status).to.equal(200);
  });
});
