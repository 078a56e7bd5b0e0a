import { expect } from 'chai';
import { install, SHIPPED_EXTENSIONS } from '../../../extensions/shipped';
import { startTestServer, TestServer } from '../../../support/test-server';
import { addClient, call, ok, pay } from './fixtures';

const TAKEN = { reference: { unique: 'The gateway has already recorded a transaction with this reference.' } };

/**
 * A gateway's reference is recorded once whether the payment names its gateway by name
 * (vars[gateway]) or, as the reference's gateways do, by id (vars[gateway_id]): a notification the
 * gateway retries, in turn or at once, must not pay twice.
 */
describe('transactions: a gateway named by id records each reference once', () => {
  let server: TestServer;
  let gateway: number;
  before(async () => {
    server = await startTestServer({ extensionsDir: SHIPPED_EXTENSIONS });
    gateway = await install(server, 'gateway_manager', 'vars[dir]=offline');
  });
  after(() => server.close());

  const count = (client: number) => ok(server, 'GET', 'transactions/getListCount', { client_id: client });

  it("refuses the same transaction_id for the same gateway_id, and records the gateway's name", async () => {
    const client = await addClient(server);
    const vars = { client_id: client, amount: '9', gateway_id: gateway, transaction_id: 'NOTE-1' };
    const first = await pay(server, vars);
    expect(await ok(server, 'GET', 'transactions/get', { transaction_id: first })).to.deep.include({ gateway_id: gateway, gateway: 'offline', reference: 'NOTE-1' });
    const again = await call(server, 'POST', 'transactions/add', { vars: { currency: 'USD', ...vars } });
    expect(again.status).to.equal(400);
    expect(again.json.errors).to.deep.equal(TAKEN);
    const byName = await call(server, 'POST', 'transactions/add', { vars: { currency: 'USD', ...vars, gateway_id: undefined, gateway: 'offline' } });
    expect(byName.json.errors).to.deep.equal(TAKEN);
    await pay(server, { ...vars, transaction_id: 'NOTE-2' });
    expect(await count(client)).to.equal(2);
  });

  it('records one of eight concurrent notifications with the same reference', async () => {
    const client = await addClient(server);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => call(server, 'POST', 'transactions/add', { vars: { client_id: client, amount: '9', currency: 'USD', gateway_id: gateway, transaction_id: 'NOTE-AT-ONCE' } })),
    );
    expect(answers.filter((r) => r.status === 200)).to.have.length(1);
    for (const refused of answers.filter((r) => r.status !== 200)) expect(refused.json.errors).to.deep.equal(TAKEN);
    expect(await count(client)).to.equal(1);
  });

  it('an edit cannot give a payment a reference its gateway already recorded', async () => {
    const client = await addClient(server);
    await pay(server, { client_id: client, amount: '9', gateway_id: gateway, transaction_id: 'NOTE-E1' });
    const other = await pay(server, { client_id: client, amount: '9', transaction_id: 'NOTE-E2' });
    const edited = await call(server, 'PUT', 'transactions/edit', { transaction_id: other, vars: { gateway_id: gateway, transaction_id: 'NOTE-E1' } });
    expect(edited.status).to.equal(400);
    expect(edited.json.errors).to.deep.equal({ transaction_id: TAKEN.reference });
    expect(await ok(server, 'GET', 'transactions/get', { transaction_id: other })).to.deep.include({ gateway_id: null, reference: 'NOTE-E2' });
  });
});
