import { expect } from 'chai';
import { ExtensionsDir, manifest } from '../extensions/fixtures';
import { send, startTestServer, TestServer } from '../../support/test-server';

/** A non-merchant gateway whose validate does what the notification's body says. */
const MISBEHAVING = `
class Payments {
  constructor(ctx) { this.ctx = ctx; }
  validate(n) {
    const [what, client, amount, id] = String(n.body).split(':');
    if (what === 'throw') throw new Error('the processor library crashed');
    if (what === 'nonsense') return { status: 'maybe', amount: 'lots' };
    if (what === 'text') return 'ok';
    if (what === 'spin') for (;;) {}
    if (what === 'ignore') return { ignored: 'a customer.updated event' };
    if (what === 'query') return { ignored: 'query ' + n.query.probe + ' form ' + (n.form.x || '') + ' method ' + n.method };
    if (what === 'pay') return { client_id: Number(client), amount, currency: 'USD', status: 'approved', transaction_id: id };
    return { genuine: false, reason: 'unknown notification' };
  }
}
Payments.callable = { validate: { params: [{ name: 'notification', kind: 'object' }] } };
exports.models = { payments: Payments };
`;

/** A merchant gateway taking asynchronous notifications (/callback/mgw/...) through tokens/validate. */
const ASYNC_MERCHANT = `
class Tokens {
  validate(n) { return { client_id: Number(n.body.split(':')[0]), amount: n.body.split(':')[1], currency: 'USD', status: 'pending', transaction_id: 'ach_' + n.body.split(':')[2] }; }
}
Tokens.callable = { validate: { params: [{ name: 'notification', kind: 'object' }] } };
exports.models = { tokens: Tokens };
`;

describe('gateway callbacks: contained failures, masked secrets, both kinds', () => {
  let dir: ExtensionsDir;
  let server: TestServer;
  let clientId: number;
  const gatewayIds: Record<string, number> = {};

  before(async () => {
    dir = new ExtensionsDir()
      .add('gateways/nonmerchant/misbehaving', manifest('Misbehaving', { currencies: ['USD'], uses: ['transactions.add'] }), MISBEHAVING)
      .add('gateways/merchant/async_probe', manifest('Async probe', { currencies: ['USD'] }), ASYNC_MERCHANT);
    server = await startTestServer({ extensionsDir: dir.root, extensionLimits: { deadlineMs: 1500 } });
    for (const gateway of ['misbehaving', 'async_probe']) {
      const res = await server.request('POST', '/api/gateway_manager/add.json', { body: `vars[dir]=${gateway}` });
      expect(res.status, res.text).to.equal(200);
      gatewayIds[gateway] = res.json.response;
    }
    clientId = (await server.request('POST', '/api/clients/add.json', { body: 'vars[first_name]=Ada&vars[last_name]=L&vars[email]=ada@example.com' })).json.response;
  });
  after(async () => {
    await server?.close();
    dir?.remove();
  });

  const notify = (body: string, path = '/callback/gw/1/misbehaving/', headers: Record<string, string> = {}) =>
    send(server.url, server.credential, 'POST', path, { auth: false, body, headers: { 'content-type': 'text/plain', ...headers } });
  const latest = async () => (await server.request('GET', '/api/gateway_notifications/getList.json')).json.response[0];

  for (const [what, reason] of [
    ['throw', /"misbehaving" failed while validating the notification; nothing was recorded/],
    ['nonsense', /validate answered a payment without a client_id/],
    ['text', /validate answered something other than a record/],
    ['spin', /"misbehaving" failed while validating/],
  ] as const) {
    it(`contains a gateway whose validate does "${what}": 200 to the processor, the inbox says failed and why, nothing recorded`, async () => {
      const res = await notify(what);
      expect(res.status, res.text).to.equal(200);
      expect(await latest()).to.include({ verdict: 'failed', transaction_id: null, attempts: 1 });
      expect((await latest()).reason).to.match(reason);
      expect((await server.request('GET', `/api/transactions/getListCount.json?client_id=${clientId}&status=all`)).json.response).to.equal(0);
    });
  }

  it('serves the callback again after a gateway blew its deadline', async () => {
    expect((await notify('ignore')).status).to.equal(200);
    expect(await latest()).to.include({ verdict: 'ignored', reason: 'a customer.updated event' });
  });

  it('gives validate the method, the query and the form, and keeps the headers with credentials and cookies masked', async () => {
    const res = await send(server.url, server.credential, 'POST', '/callback/gw/1/misbehaving?probe=42', {
      auth: false,
      body: 'query',
      headers: { 'content-type': 'text/plain', authorization: 'Bearer very-secret', cookie: 'session=abc', 'x-api-key': 'k', 'x-client-secret': 's', 'x-request-id': 'r-1' },
    });
    expect(res.status).to.equal(200);
    const kept = await latest();
    expect(kept).to.include({ verdict: 'ignored', reason: 'query 42 form  method POST', query: 'probe=42', body: 'query' });
    expect(kept.headers).to.include({ authorization: '********', cookie: '********', 'x-api-key': '********', 'x-client-secret': '********', 'x-request-id': 'r-1' });
    expect(JSON.stringify(kept)).not.to.match(/very-secret|session=abc/);
  });

  it('records a payment once; the gateway cannot name another company', async () => {
    expect((await notify(`pay:${clientId}:12.50:T-1`)).status).to.equal(200);
    expect(await latest()).to.include({ verdict: 'recorded', gateway_transaction_id: 'T-1' });
    const company = (await server.request('POST', '/api/companies/add.json', { body: 'vars[name]=Other', auth: server.installationCredential })).json.response;
    const theirs = await server.credentialFor(company);
    const theirClient = (await server.request('POST', '/api/clients/add.json', { body: 'vars[first_name]=Eve&vars[last_name]=L&vars[email]=eve@example.com', auth: theirs })).json.response;
    // Company 1's gateway reporting company 2's client: transactions/add refuses the client, nothing is recorded.
    expect((await notify(`pay:${theirClient}:5.00:T-2`)).status).to.equal(200);
    expect(await latest()).to.include({ verdict: 'failed', transaction_id: null });
    expect((await server.request('GET', `/api/transactions/getListCount.json?client_id=${theirClient}&status=all`, { auth: theirs })).json.response).to.equal(0);
  });

  it("keeps a gateway's numeric transaction id past 32 bits as text: recorded, then known as a duplicate", async () => {
    expect((await notify(`pay:${clientId}:1.00:99999999999`)).status).to.equal(200);
    expect(await latest()).to.include({ verdict: 'recorded', gateway_transaction_id: '99999999999' });
    expect((await notify(`pay:${clientId}:1.00:99999999999`)).status).to.equal(200);
    expect(await latest()).to.include({ verdict: 'duplicate', gateway_transaction_id: '99999999999' });
  });

  it('takes a merchant gateway’s asynchronous notification at /callback/mgw/, and not at /callback/gw/', async () => {
    expect((await notify(`${clientId}:3.00:9`, '/callback/gw/1/async_probe/')).status).to.equal(404);
    expect((await notify(`${clientId}:3.00:9`, '/callback/mgw/1/async_probe/')).status).to.equal(200);
    expect(await latest()).to.include({ kind: 'merchant', verdict: 'recorded', gateway_transaction_id: 'ach_9' });
  });

  it('answers 404 once the gateway is disabled, as for one never installed', async () => {
    const off = await server.request('PUT', '/api/gateway_manager/disable.json', { body: `gateway_id=${gatewayIds.misbehaving}` });
    expect(off.status, off.text).to.equal(200);
    const res = await notify('ignore');
    expect(res.status).to.equal(404);
    expect(res.text).to.equal((await notify('ignore', '/callback/gw/1/never_installed/')).text);
  });
});
