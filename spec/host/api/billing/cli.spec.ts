import { expect } from 'chai';
import { runCli } from '../../../support/cli';
import { startTestServer, TestServer } from '../../../support/test-server';
import { addClient, form, invoiceVars } from './fixtures';

/** The billing models answer on the command line form exactly as over HTTP, on the same database. */
describe('billing from the command line', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  const cli = (path: string, verb: string, params: Record<string, unknown>) =>
    runCli(server.database.url, [path, '-u', server.credential.user, '-k', server.credential.key, '-m', verb, '-p', form(params)]);

  it('adds an invoice and a payment with -p, and the server sees them', async () => {
    const client = await addClient(server);
    const added = await cli('api/invoices/add.json', 'POST', { vars: invoiceVars(client, { lines: [{ description: 'From a shell', amount: '19.99', qty: 3 }] }) });
    expect(added.code, added.stderr + added.stdout).to.equal(0);
    const invoiceId = JSON.parse(added.stdout).response;
    const paid = await cli('api/transactions/add.json', 'POST', { vars: { client_id: client, amount: '59.97', currency: 'USD', invoices: [{ invoice_id: invoiceId }] } });
    expect(paid.code, paid.stdout).to.equal(0);
    const got = await server.request('GET', `/api/invoices/get.json?invoice_id=${invoiceId}`);
    expect(got.json.response).to.deep.include({ total: '59.9700', paid: '59.9700', due: '0.0000' });
  });

  it('answers the same 400 body as HTTP for an empty invoices/add', async () => {
    const res = await cli('api/invoices/add.json', 'POST', {});
    expect(res.code).to.not.equal(0);
    const http = await server.request('POST', '/api/invoices/add.json', { body: '' });
    expect(JSON.parse(res.stdout)).to.deep.equal(http.json);
  });
});
