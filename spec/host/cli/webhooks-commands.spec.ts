import { expect } from 'chai';
import { runCli } from '../../support/cli';
import { startTestServer, TestServer } from '../../support/test-server';
import { WebhookReceiver } from '../../support/webhook-receiver';

/**
 * `tally webhooks ...` and `tally events ...` against a running server's database: endpoints made
 * and changed from the command line are the ones the server delivers to (a real receiver verifying
 * with standardwebhooks), and the commands answer and refuse as the API does for the company named.
 */
describe('webhooks and events commands', function () {
  // Each command is a process of its own (a few seconds to start on a busy machine), and a test runs a dozen.
  this.timeout(300_000);
  let server: TestServer;
  let receiver: WebhookReceiver;
  let otherCompany: number;

  const cli = (...args: string[]) => runCli(server.database.url, args);
  const ok = async (...args: string[]) => {
    const res = await cli(...args);
    expect(res.code, `${args.join(' ')}: ${res.stderr}`).to.equal(0);
    return res.stdout;
  };
  const addClient = async (first: string) => {
    const answer = await server.request('POST', '/api/clients/add.json', { body: `vars[first_name]=${first}&vars[last_name]=Lovelace&vars[email]=${first.toLowerCase()}@example.com` });
    expect(answer.status, answer.text).to.equal(200);
    return answer.json.response as number;
  };
  const addEndpoint = async (...args: string[]) => JSON.parse(await ok('webhooks', 'add', receiver.url, '--json', ...args)) as { id: number; secret: string };

  before(async () => {
    server = await startTestServer({ events: { pollMs: 20, retryDelaysMs: [100, 100, 100] } });
    const body = 'settings[webhooks_allow_http]=true&settings[webhooks_allow_private_addresses]=true';
    expect((await server.request('POST', '/api/settings/setSettings.json', { body, auth: server.installationCredential })).status).to.equal(200);
    const other = await server.request('POST', '/api/companies/add.json', { body: 'vars[name]=Other', auth: server.installationCredential });
    expect(other.status, other.text).to.equal(200);
    otherCompany = other.json.response;
  });
  after(() => server.close());
  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterEach(async () => {
    for (const endpoint of (await server.request('GET', '/api/webhooks/getList.json')).json.response) await server.request('DELETE', `/api/webhooks/delete.json?webhook_id=${endpoint.id}`);
    await receiver.close();
  });

  it('add prints the signing secret once; the server delivers to the endpoint signed with it; list never shows it', async () => {
    const text = await ok('webhooks', 'add', receiver.url, '--type', 'Clients.add', '--description', 'mirror');
    const secret = /Signing secret: (whsec_\S+)/.exec(text)![1];
    expect(text).to.contain('Store the secret now');
    receiver.secrets = [secret];
    await addClient('Ada');
    const got = await receiver.until(() => receiver.received.find((r) => r.verifiedBy === 0));
    expect(got.event).to.include({ type: 'Clients.add', company_id: 1 });
    const listed = await ok('webhooks', 'list');
    expect(listed).to.match(/^\d+\s+enabled\s+http:\/\/127\.0\.0\.1:\d+\/hook\s+Clients\.add\s+/m);
    expect(listed).to.contain('mirror');
    const json = await ok('webhooks', 'list', '--json');
    for (const shown of [listed, json]) expect(shown).not.to.contain(secret.slice(6));
    expect(JSON.parse(json)[0]).to.include({ url: receiver.url, status: 'enabled' });
    const audited = await server.request('GET', '/api/audit/getList.json?filters[actor]=cli&filters[model]=webhooks', { auth: server.installationCredential });
    expect(audited.json.response[0]).to.include({ method: 'add', verb: 'CLI', status: 200 });
    expect(audited.text).not.to.contain(secret.slice(6));
  });

  it('refuses what the API refuses, with its message and status 1, and writes nothing', async () => {
    const https = await cli('webhooks', 'add', 'ftp://example.com/hook');
    expect(https.code).to.equal(1);
    expect(https.stderr).to.contain('https://');
    const type = await cli('webhooks', 'add', receiver.url, '--type', 'Clients.nope');
    expect(type.code).to.equal(1);
    expect(type.stderr).to.contain('Not an event type (see events/getTypes): Clients.nope.');
    expect(JSON.parse(await ok('webhooks', 'list', '--json'))).to.deep.equal([]);
    const both = await cli('webhooks', 'edit', '1', '--type', 'Clients.add', '--all-types');
    expect(both.code).to.equal(1);
    expect(both.stderr).to.contain('not both');
  });

  it('disable stops deliveries and enable starts them again; edit changes the types; delete removes the endpoint', async () => {
    const endpoint = await addEndpoint();
    receiver.secrets = [endpoint.secret];
    expect(await ok('webhooks', 'disable', String(endpoint.id))).to.contain('disabled (staff)');
    await addClient('Unsent');
    expect(await ok('webhooks', 'enable', String(endpoint.id))).to.match(/\benabled\b/);
    await addClient('Sent');
    await receiver.until(() => receiver.verified().some((e) => e.data.first_name === 'Sent'));
    expect(receiver.verified().map((e) => e.data.first_name)).to.deep.equal(['Sent']);
    expect(await ok('webhooks', 'edit', String(endpoint.id), '--type', 'Contacts.add', '--type', 'Clients.delete')).to.contain('Contacts.add,Clients.delete');
    expect(await ok('webhooks', 'edit', String(endpoint.id), '--all-types')).to.match(/\sall\s/);
    expect(await ok('webhooks', 'delete', String(endpoint.id))).to.equal(`Deleted webhook endpoint ${endpoint.id} of company 1.\n`);
    expect(await ok('webhooks', 'list')).to.equal('Company 1 has no webhook endpoints.\n');
  });

  it('lists deliveries and attempts, and resends one delivery, one event and the failures since a time, with the same webhook-id', async () => {
    const endpoint = await addEndpoint('--type', 'Clients.add');
    receiver.secrets = [endpoint.secret];
    receiver.answer = () => 500;
    await addClient('Failing');
    const dead = await waitFor(async () => JSON.parse(await ok('webhooks', 'dead', '--json')).find((d: any) => d.status === 'dead'));
    expect(dead).to.include({ event_type: 'Clients.add', target: String(endpoint.id), attempts: 4 });
    expect(await ok('webhooks', 'dead')).to.match(new RegExp(`^${dead.id}\\s+${dead.event_id}\\s+Clients\\.add\\s+webhook ${endpoint.id}\\s+dead\\s+4\\s+500`, 'm'));
    const attempts = await ok('webhooks', 'attempts', String(dead.id));
    expect(attempts.trim().split('\n')).to.have.length(5);
    expect(attempts).to.contain('refused 500');
    expect(await ok('webhooks', 'deliveries', String(endpoint.id), '--status', 'delivered')).to.contain('has no deliveries delivered');

    receiver.answer = () => 200;
    expect(await ok('webhooks', 'resend', String(dead.id))).to.equal('Queued 1 delivery.\n');
    await receiver.until(() => receiver.received.find((r) => r.answered === 200));
    expect(await ok('webhooks', 'resend-event', dead.event_id)).to.equal('Queued 1 delivery.\n');
    await receiver.until(() => receiver.received.filter((r) => r.answered === 200).length === 2);
    receiver.answer = () => 503;
    expect(await ok('webhooks', 'resend', String(dead.id))).to.equal('Queued 1 delivery.\n');
    await waitFor(async () => JSON.parse(await ok('webhooks', 'deliveries', String(endpoint.id), '--json'))[0].status === 'dead');
    receiver.answer = () => 200;
    expect(await ok('webhooks', 'resend-failed', String(endpoint.id), '--since', '2020-01-01 00:00:00 UTC')).to.equal('Queued 1 delivery.\n');
    await waitFor(async () => JSON.parse(await ok('webhooks', 'deliveries', String(endpoint.id), '--status', 'delivered', '--json')).length === 1);
    expect(new Set(receiver.received.map((r) => r.id))).to.deep.equal(new Set([dead.event_id]));
    expect(receiver.received.every((r) => r.verifiedBy === 0)).to.equal(true);
    expect(await ok('webhooks', 'resend-failed', String(endpoint.id), '--since', '2020-01-01 00:00:00 UTC')).to.equal('Queued 0 deliveries.\n');
  });

  it('rotate-secret prints a new secret; both sign during the overlap, only the new one after --overlap-hours 0', async () => {
    const endpoint = await addEndpoint('--type', 'Clients.add');
    const rotated = await ok('webhooks', 'rotate-secret', String(endpoint.id), '--overlap-hours', '1');
    const secret = /New signing secret: (whsec_\S+)/.exec(rotated)![1];
    expect(secret).not.to.equal(endpoint.secret);
    expect(rotated).to.match(/keeps signing beside it until \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
    receiver.secrets = [endpoint.secret];
    await addClient('Overlap');
    const during = await receiver.until(() => receiver.received[0]);
    expect(during.verifiedBy).to.equal(0);
    expect(during.signature.split(' ')).to.have.length(2);
    const last = JSON.parse(await ok('webhooks', 'rotate-secret', String(endpoint.id), '--overlap-hours', '0', '--json'));
    expect(last.rotating_until).to.equal(null);
    receiver.secrets = [secret, last.secret];
    await addClient('After');
    const after = await receiver.until(() => receiver.received[1]);
    expect(after.verifiedBy).to.equal(1);
    expect(after.signature.split(' ')).to.have.length(1);
    const refused = await cli('webhooks', 'rotate-secret', String(endpoint.id), '--overlap-hours', '169');
    expect(refused.code).to.equal(1);
    expect(refused.stderr).to.contain('from 0 to 168');
  });

  it("events types, list, get and deliveries read the catalogue and the company's own events", async () => {
    const types = await ok('events', 'types');
    expect(types).to.match(/^Services\.suspend\s+reference\s+/m);
    expect(JSON.parse(await ok('events', 'types', '--json')).map((t: any) => t.type)).to.include('Credentials.revoked');
    const endpoint = await addEndpoint('--type', 'Clients.add');
    receiver.secrets = [endpoint.secret];
    const clientId = await addClient('Listed');
    const got = await receiver.until(() => receiver.received[0]);
    const listed = await ok('events', 'list', '--type', 'Clients.add');
    expect(listed.split('\n')[1]).to.match(new RegExp(`^${got.id}\\s+Clients\\.add\\s+\\d{4}-`));
    const event = JSON.parse(await ok('events', 'get', got.id));
    expect(event).to.include({ id: got.id, type: 'Clients.add', company_id: 1 });
    expect(event.payload).to.include({ id: clientId, first_name: 'Listed' });
    const deliveries = await waitFor(async () => {
      const rows = JSON.parse(await ok('events', 'deliveries', got.id, '--json'));
      return rows[0]?.status === 'delivered' && rows;
    });
    expect(deliveries).to.have.length(1);
    expect(deliveries[0]).to.include({ kind: 'webhook', target: String(endpoint.id) });
    expect(JSON.parse(await ok('events', 'list', '--after', got.id, '--type', 'Clients.add', '--json'))).to.deep.equal([]);
    const unknown = await cli('events', 'list', '--type', 'Clients.nope');
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr).to.contain('No such event type');
  });

  it("another company's --company sees, changes and resends none of the first company's endpoints, deliveries or events", async () => {
    const endpoint = await addEndpoint('--type', 'Clients.add');
    receiver.secrets = [endpoint.secret];
    await addClient('Private');
    const got = await receiver.until(() => receiver.received[0]);
    const delivery = await waitFor(async () => JSON.parse(await ok('webhooks', 'deliveries', String(endpoint.id), '--json'))[0]);
    const other = ['--company', String(otherCompany)];
    expect(await ok('webhooks', 'list', ...other)).to.equal(`Company ${otherCompany} has no webhook endpoints.\n`);
    for (const args of [
      ['webhooks', 'edit', String(endpoint.id), '--url', 'https://example.com/stolen'],
      ['webhooks', 'disable', String(endpoint.id)],
      ['webhooks', 'delete', String(endpoint.id)],
      ['webhooks', 'rotate-secret', String(endpoint.id)],
      ['webhooks', 'deliveries', String(endpoint.id)],
      ['webhooks', 'resend-failed', String(endpoint.id), '--since', '2020-01-01 00:00:00 UTC'],
    ]) {
      const res = await cli(...args, ...other);
      expect(res.code, args.join(' ')).to.equal(1);
      expect(res.stderr).to.contain('The company has no webhook endpoint of that id.');
    }
    expect((await cli('webhooks', 'resend', String(delivery.id), ...other)).stderr).to.contain('The company has no delivery of that id.');
    expect((await cli('webhooks', 'resend-event', got.id, ...other)).stderr).to.contain('The company has no delivery of that event.');
    expect(await ok('webhooks', 'attempts', String(delivery.id), ...other)).to.contain('has no attempts');
    expect(await ok('webhooks', 'dead', ...other)).to.contain('has no dead deliveries');
    const get = await cli('events', 'get', got.id, ...other);
    expect(get.code).to.equal(1);
    expect(get.stderr).to.contain(`Company ${otherCompany} has no event ${got.id}.`);
    expect(await ok('events', 'deliveries', got.id, ...other)).to.contain('has no deliveries');
    expect(JSON.parse(await ok('events', 'list', '--type', 'Clients.add', '--json', ...other))).to.deep.equal([]);
    const mine = JSON.parse(await ok('webhooks', 'list', '--json'))[0];
    expect(mine).to.include({ url: receiver.url, status: 'enabled' });
    expect(receiver.received).to.have.length(1);
  });

  it('prints what was written over the API with its control characters escaped: no terminal escape, no forged row', async () => {
    const description = 'ops\x1b[2J\x1b]0;owned\x07\r\n99\tenabled\thttps://forged.example\u202e';
    const added = await server.request('POST', '/api/webhooks/add.json', { body: `vars[url]=${encodeURIComponent(receiver.url)}&vars[description]=${encodeURIComponent(description)}` });
    expect(added.status, added.text).to.equal(200);
    for (const args of [
      ['webhooks', 'list'],
      ['webhooks', 'list', '--json'],
    ]) {
      const out = await ok(...args);
      expect(out).not.to.match(/[\x00-\x08\x0b-\x1f\x7f\u202e]/);
      expect(out.trim().split('\n')).to.have.length(args.includes('--json') ? 1 : 2);
    }
    expect(JSON.parse(await ok('webhooks', 'list', '--json'))[0].description).to.equal(description);
  });
});

async function waitFor<T>(check: () => Promise<T | false | undefined>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
