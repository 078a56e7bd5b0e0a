import { expect } from 'chai';
import { CallContext } from '../../../core/kernel/call-context';
import { callable } from '../../../core/kernel/callable';
import { model } from '../../../core/kernel/model';
import { classEntry } from '../../../core/kernel/model-entry';
import { SettingsStore } from '../../../core/settings-store';
import { startTestServer, TestServer } from '../../support/test-server';

/** A model that reads a setting through the installation's database, not its call's transaction. */
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
}

describe('a query outside the call transaction', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ sqliteWaitMs: 300 });
    server.installation.addModel(classEntry(OutsideQuery));
  });
  after(() => server.close());

  it('fails after a bounded wait on SQLite instead of stalling the server forever, and works on PostgreSQL', async function () {
    this.timeout(5000);
    const res = await server.request('GET', '/api/spec_outside_query/read.json');
    if (server.installation.connection.dialect === 'sqlite') {
      expect(res.status).to.equal(500);
      expect(res.json).to.deep.equal({ message: 'An unexpected error occured.' });
    } else {
      expect(res.json).to.deep.equal({ response: 'UTC' });
    }
    expect((await server.request('GET', '/api/users/getListCount.json')).status).to.equal(200);
  });
});
