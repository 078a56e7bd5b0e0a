import fs from 'node:fs';
import path from 'node:path';
import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { ExtensionsDir, manifest } from '../extensions/fixtures';
import { send, startTestServer, TestServer } from '../../support/test-server';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

/** The gateway docs/extensions.md shows under "Writing a gateway", exactly as printed there. */
function documentedGateway(): string {
  const page = fs.readFileSync(path.join(ROOT, 'docs', 'extensions.md'), 'utf8');
  const block = /```js\n(\/\/ extensions\/gateways\/nonmerchant\/shared_secret\/index\.js[\s\S]*?)```/.exec(page);
  expect(block, 'the example in docs/extensions.md').not.to.equal(null);
  return block![1];
}

describe('the gateway docs/extensions.md shows, installed as printed', () => {
  let dir: ExtensionsDir;
  let server: TestServer;

  before(async () => {
    dir = new ExtensionsDir().add(
      'gateways/nonmerchant/shared_secret',
      manifest('Shared secret', { currencies: ['USD'], settings: { secret: { secret: true, required: true } }, hosts: ['pay.example.com'], uses: ['transactions.add'] }),
      documentedGateway(),
    );
    // Its npm dependency resolves as from an extension inside the project.
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir.root, 'node_modules'));
    server = await startTestServer({ extensionsDir: dir.root });
    const res = await server.request('POST', '/api/gateway_manager/add.json', { body: 'vars[dir]=shared_secret&vars[settings][secret]=s3cret' });
    expect(res.status, res.text).to.equal(200);
  });
  after(async () => {
    await server?.close();
    dir?.remove();
  });

  it('builds the redirect, and pays an invoice from a notification signed with the secret; a wrong signature is refused', async () => {
    const client = (await server.request('POST', '/api/clients/add.json', { body: 'vars[first_name]=Ada&vars[last_name]=L&vars[email]=ada@example.com' })).json.response;
    const invoice = (
      await server.request('POST', '/api/invoices/add.json', {
        body: `vars[client_id]=${client}&vars[date_billed]=2026-11-01&vars[date_due]=2026-12-01&vars[currency]=USD&vars[lines][0][description]=Hosting&vars[lines][0][amount]=9.00`,
      })
    ).json.response;
    const built = await server.request('POST', '/api/shared_secret.payments/buildProcess.json', {
      body: `vars[client_id]=${client}&vars[amount]=9.00&vars[currency]=USD&vars[return_url]=https://billing.example.com/`,
    });
    expect(built.status, built.text).to.equal(200);
    expect(built.json.response).to.deep.equal({ type: 'redirect', url: `https://pay.example.com/pay?amount=9.00&currency=USD&client=${client}&return=https%3A%2F%2Fbilling.example.com%2F` });

    const body = JSON.stringify({ event: 'paid', id: 'P-1', client, amount: '9.00', currency: 'USD', invoices: [{ invoice_id: invoice }] });
    const signed = (signature: string) =>
      send(server.url, server.credential, 'POST', '/callback/gw/1/shared_secret/', { auth: false, body, headers: { 'content-type': 'application/json', 'x-signature': signature } });
    expect((await signed('0'.repeat(64))).status).to.equal(400);
    expect((await signed(createHmac('sha256', 's3cret').update(body).digest('hex'))).status).to.equal(200);
    expect((await server.request('GET', `/api/invoices/get.json?invoice_id=${invoice}`)).json.response.date_closed).to.be.a('string');
  });
});
