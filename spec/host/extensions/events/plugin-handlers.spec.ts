import { expect } from 'chai';
import { OutboxEvent } from '../../../../core/events/event-consumers';
import { PluginEventConsumer } from '../../../../host/extensions/plugin-event-consumer';
import { Credential, startTestServer, TestServer } from '../../../support/test-server';
import { ExtensionsDir, manifest } from '../fixtures';
import { LISTENER, LISTENER_MANIFEST } from './listener';

let sequence = 0;
/** An event as the outbox hands it over: ids are time-ordered. */
const event = (type: string, companyId: number, payload: unknown = {}): OutboxEvent => ({
  id: `evt_${String(Date.now()).padStart(15, '0')}${String(++sequence).padStart(6, '0')}`,
  type,
  companyId,
  occurredAt: '2026-11-27 12:00:00',
  payload,
});

/**
 * Plugin handlers through the EventConsumer the outbox delivers to: who is subscribed, what a
 * handler sees and may reach, and what its failures keep. What the handler recorded is read back
 * over the API, as its company.
 */
describe('extensions: plugin event handlers', function () {
  this.timeout(60_000);
  const dir = new ExtensionsDir()
    .add('plugins/listener', manifest('Listener', LISTENER_MANIFEST), LISTENER)
    .add('plugins/deaf', manifest('Deaf', { tables: ['deaf_rows'] }), 'exports.models = {};')
    .add('plugins/unheard', manifest('Unheard', { events: ['Clients.add'] }), 'exports.models = {};')
    .add('plugins/secretive', manifest('Secretive'), "exports.models = {}; exports.events = { 'Clients.add': () => null };");
  let server: TestServer;
  let consumer: PluginEventConsumer;
  let other: Credential;
  let otherCompany: number;
  let listenerId: number;

  const seen = async (auth?: Credential) => (await server.request('GET', '/api/listener.seen/list.json', { auth })).json.response as Array<Record<string, unknown>>;

  before(async () => {
    server = await startTestServer({ extensionsDir: dir.root, extensionLimits: { deadlineMs: 1500 } });
    consumer = server.installation.container.resolve(PluginEventConsumer);
    otherCompany = (await server.request('POST', '/api/companies/add.json', { body: 'vars[name]=Other', auth: server.installationCredential })).json.response;
    other = await server.credentialFor(otherCompany);
    listenerId = (await server.request('POST', '/api/plugin_manager/add.json', { body: 'vars[dir]=listener' })).json.response;
    expect((await server.request('POST', '/api/plugin_manager/add.json', { body: 'vars[dir]=deaf' })).status).to.equal(200);
  });
  after(async () => {
    await server.close();
    dir.remove();
  });

  it('shows the installer the events it asks for', async () => {
    const listed = (await server.request('GET', '/api/plugin_manager/getAll.json', { auth: other })).json.response.find((e: any) => e.dir === 'listener');
    expect(listed.status).to.equal('available');
    expect(listed.capabilities.events).to.deep.equal(['Clients.add', 'Services.suspend']);
  });

  it('leaves out an extension whose handlers are not those its manifest lists, saying why', async () => {
    const listed = (await server.request('GET', '/api/plugin_manager/getAll.json')).json.response;
    expect(listed.find((e: any) => e.dir === 'unheard').error).to.equal('config.json lists the event "Clients.add" in "events" but exports.events has no function for it.');
    expect(listed.find((e: any) => e.dir === 'secretive').error).to.equal('exports.events has "Clients.add", which config.json\'s "events" does not list (the installer sees only what it lists).');
  });

  it("subscribes the extensions listing the type that the event's company has installed and enabled", async () => {
    expect(consumer.kind).to.equal('plugin');
    expect(await consumer.subscribers(event('Clients.add', 1))).to.deep.equal(['listener']);
    expect(await consumer.subscribers(event('Invoices.add', 1))).to.deep.equal([]);
    expect(await consumer.subscribers(event('Clients.add', otherCompany)), 'not installed there').to.deep.equal([]);
    expect((await server.request('POST', '/api/plugin_manager/disable.json', { body: `plugin_id=${listenerId}` })).status).to.equal(200);
    expect(await consumer.subscribers(event('Clients.add', 1)), 'disabled').to.deep.equal([]);
    expect((await server.request('POST', '/api/plugin_manager/enable.json', { body: `plugin_id=${listenerId}` })).status).to.equal(200);
    expect(await consumer.subscribers(event('Clients.add', 1))).to.deep.equal(['listener']);
  });

  it("runs the handler as the event's company, in the order delivered, reaching only that company's records", async () => {
    const mine = (await server.request('POST', '/api/clients/add.json', { body: 'vars[first_name]=Ada&vars[last_name]=Mine&vars[email]=ada%40example.com' })).json.response;
    const theirs = (await server.request('POST', '/api/clients/add.json', { body: 'vars[first_name]=Eve&vars[last_name]=Theirs&vars[email]=eve%40example.com', auth: other })).json.response;
    const events = [event('Clients.add', 1, { client_id: mine }), event('Services.suspend', 1), event('Clients.add', 1, { client_id: theirs })];
    for (const e of events) await consumer.deliver('listener', e);
    expect(await seen()).to.deep.equal([
      { event_id: events[0].id, type: 'Clients.add', event_company: 1, ctx_company: 1, detail: 'client Ada' },
      { event_id: events[1].id, type: 'Services.suspend', event_company: 1, ctx_company: 1, detail: 'no client' },
      { event_id: events[2].id, type: 'Clients.add', event_company: 1, ctx_company: 1, detail: 'client not found' },
    ]);
  });

  it("never receives another company's event: where it is not enabled nothing runs, and its rows stay its company's", async () => {
    const before = (await seen()).length;
    await consumer.deliver('listener', event('Clients.add', otherCompany, { client_id: 1 }));
    expect((await seen()).length).to.equal(before);
    expect((await server.request('POST', '/api/plugin_manager/add.json', { body: 'vars[dir]=listener', auth: other })).status).to.equal(200);
    const theirs = event('Services.suspend', otherCompany);
    await consumer.deliver('listener', theirs);
    expect((await seen(other)).map((r) => [r.event_id, r.ctx_company])).to.deep.equal([[theirs.id, otherCompany]]);
    expect((await seen()).map((r) => r.event_id)).not.to.include(theirs.id);
  });

  it('a handler that throws makes deliver throw (the outbox retries), keeps nothing of that attempt, and succeeds when retried', async () => {
    const once = event('Services.suspend', 1, { fail: 'once' });
    let thrown: unknown;
    await consumer.deliver('listener', once).catch((error) => (thrown = error));
    expect(thrown, 'the first attempt').to.be.an('error');
    expect((await seen()).filter((r) => r.event_id === once.id)).to.deep.equal([]);
    await consumer.deliver('listener', once);
    expect((await seen()).filter((r) => r.event_id === once.id).map((r) => r.detail)).to.deep.equal(['no client']);
  });

  it('a handler that always throws fails every attempt and never keeps a row (after the last retry the outbox parks it)', async () => {
    const always = event('Services.suspend', 1, { fail: 'always' });
    for (let attempt = 0; attempt < 3; attempt++) {
      let thrown: unknown;
      await consumer.deliver('listener', always).catch((error) => (thrown = error));
      expect(thrown, `attempt ${attempt + 1}`).to.be.an('error');
    }
    expect((await seen()).filter((r) => r.event_id === always.id)).to.deep.equal([]);
  });

  it('a handler that hangs fails at its deadline and holds nothing meanwhile: core calls and writes answer at once', async () => {
    const started = Date.now();
    const hanging = consumer.deliver('listener', event('Services.suspend', 1, { fail: 'hang' })).then(
      () => null,
      (error: Error) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const write = Date.now();
    const added = await server.request('POST', '/api/clients/add.json', { body: 'vars[first_name]=Meanwhile&vars[last_name]=Added&vars[email]=m%40example.com' });
    expect(added.status).to.equal(200);
    expect(Date.now() - write, 'a core write while a handler hangs').to.be.below(1000);
    expect(await hanging)
      .to.be.an('error')
      .with.property('message')
      .that.matches(/deadline/);
    expect(Date.now() - started).to.be.below(5000);
    expect((await server.request('GET', `/api/clients/get.json?client_id=${added.json.response}`)).json.response.first_name).to.equal('Meanwhile');
  });

  it('delivering to an extension no longer subscribed (disabled since) runs nothing and is done', async () => {
    expect((await server.request('POST', '/api/plugin_manager/disable.json', { body: `plugin_id=${listenerId}` })).status).to.equal(200);
    const late = event('Services.suspend', 1);
    await consumer.deliver('listener', late);
    expect((await server.request('POST', '/api/plugin_manager/enable.json', { body: `plugin_id=${listenerId}` })).status).to.equal(200);
    expect((await seen()).map((r) => r.event_id)).not.to.include(late.id);
  });
});
