import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { ExtensionsDir, manifest } from '../extensions/fixtures';
import { startTestServer, TestServer } from '../../support/test-server';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

/** The merchant gateway docs/extensions.md shows under "Writing a gateway", exactly as printed there. */
function documentedGateway(): string {
  const page = fs.readFileSync(path.join(ROOT, 'docs', 'extensions.md'), 'utf8');
  const block = /```js\n(\/\/ extensions\/gateways\/merchant\/card_vault\/index\.js[\s\S]*?)```/.exec(page);
  expect(block, 'the example in docs/extensions.md').not.to.equal(null);
  return block![1];
}

interface VaultRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  form: Record<string, string>;
}

/** The processor the example talks to: it keeps cards by browser token, charges them for their customer only, and refunds once per idempotency key. */
async function startVault() {
  const requests: VaultRequest[] = [];
  const cards = new Map<string, { customer: string; declines: boolean }>();
  const refunds = new Map<string, unknown>();
  let next = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      requests.push({ path: req.url ?? '', headers: req.headers, form });
      const answer = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.headers.authorization !== 'Bearer vault_key') return answer(401, { error: 'bad key' });
      if (req.url === '/cards') {
        const id = `card_${++next}`;
        cards.set(id, { customer: form.customer, declines: form.token === 'tok_declines' });
        return answer(200, { id, last4: form.token === 'tok_declines' ? '0002' : '4242', brand: 'visa', expiration: '203012' });
      }
      if (req.url === '/charges') {
        const card = cards.get(form.card);
        if (!card || card.customer !== form.customer) return answer(404, { error: 'no such card for this customer' });
        if (card.declines) return answer(402, { declined: true, message: 'Insufficient funds.' });
        return answer(200, { id: `ch_${++next}` });
      }
      if (req.url === '/refunds') {
        const key = String(req.headers['idempotency-key']);
        if (!refunds.has(key)) refunds.set(key, { id: `rf_${++next}` });
        return answer(200, refunds.get(key));
      }
      if (req.url === '/cards/delete') return answer(200, { deleted: cards.delete(form.card) });
      answer(404, { error: 'unknown' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('the merchant gateway docs/extensions.md shows, installed as printed', () => {
  let dir: ExtensionsDir;
  let server: TestServer;
  let vault: Awaited<ReturnType<typeof startVault>>;

  before(async () => {
    vault = await startVault();
    dir = new ExtensionsDir().add(
      'gateways/merchant/card_vault',
      manifest('Card vault', { currencies: ['USD'], settings: { api_key: { secret: true, required: true } }, hosts: ['vault.example.com'], uses: ['transactions.add'] }),
      documentedGateway(),
    );
    server = await startTestServer({ extensionsDir: dir.root, extensionLimits: { testHosts: new Map([['vault.example.com', vault.url]]) } });
    const res = await server.request('POST', '/api/gateway_manager/add.json', { body: 'vars[dir]=card_vault&vars[settings][api_key]=vault_key' });
    expect(res.status, res.text).to.equal(200);
  });
  after(async () => {
    await server?.close();
    await vault?.close();
    dir?.remove();
  });

  const call = async (verb: string, pathAndQuery: string, body?: string) => {
    const res = await server.request(verb, pathAndQuery, body === undefined ? {} : { body });
    return res;
  };
  const invoice = async (client: number) =>
    (
      await call(
        'POST',
        '/api/invoices/add.json',
        `vars[client_id]=${client}&vars[date_billed]=2026-11-01&vars[date_due]=2026-12-01&vars[currency]=USD&vars[lines][0][description]=Hosting&vars[lines][0][amount]=30.00`,
      )
    ).json.response;

  it('saves a card by its token, pays an invoice with it, refunds part once per idempotency key; a declining card changes nothing', async () => {
    const client = (await call('POST', '/api/clients/add.json', 'vars[first_name]=Ada&vars[last_name]=L&vars[email]=ada@example.com')).json.response;
    const saved = await call('POST', '/api/accounts/addCc.json', `vars[client_id]=${client}&vars[gateway]=card_vault&vars[token]=tok_visa`);
    expect(saved.status, saved.text).to.equal(200);
    expect(vault.requests.at(-1)!.form).to.deep.equal({ token: 'tok_visa', customer: String(client) });
    const account = (await call('GET', `/api/accounts/getCc.json?account_id=${saved.json.response}`)).json.response;
    expect(account).to.include({ gateway: 'card_vault', last4: '4242', expiration: '203012' });

    const invoiceId = await invoice(client);
    const paid = await call('POST', '/api/gateway_payments/payInvoice.json', `invoice_id=${invoiceId}&account_id=${saved.json.response}`);
    expect(paid.status, paid.text).to.equal(200);
    expect(paid.json.response.status).to.equal('approved');
    expect((await call('GET', `/api/invoices/get.json?invoice_id=${invoiceId}`)).json.response.date_closed).to.be.a('string');

    const refunded = await call('POST', '/api/gateway_payments/refund.json', `transaction_id=${paid.json.response.transaction_id}&amount=5.00`);
    expect(refunded.status, refunded.text).to.equal(200);
    expect(refunded.json.response.refunded).to.equal('5.0000');
    expect(vault.requests.at(-1)!.headers['idempotency-key']).to.match(/^tally-1-\d+-refund-/);
    expect((await call('GET', `/api/invoices/get.json?invoice_id=${invoiceId}`)).json.response.paid).to.match(/^25\.0+$/);

    const declining = await call('POST', '/api/accounts/addCc.json', `vars[client_id]=${client}&vars[gateway]=card_vault&vars[token]=tok_declines`);
    const other = await invoice(client);
    const declined = await call('POST', '/api/gateway_payments/payInvoice.json', `invoice_id=${other}&account_id=${declining.json.response}`);
    expect(declined.json.response).to.deep.equal({ status: 'declined', message: 'Insufficient funds.', transaction_id: null });
    expect((await call('GET', `/api/invoices/get.json?invoice_id=${other}`)).json.response.date_closed).to.equal(null);
  });
});
