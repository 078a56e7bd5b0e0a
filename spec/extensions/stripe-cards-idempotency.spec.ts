import { expect } from 'chai';
import { sql } from 'kysely';
import { runBilling } from '../../core/automation/billing-run';
import { TestServer } from '../support/test-server';
import { StripeStandIn } from '../support/stripe-stand-in';
import { startWithStripeStandIn } from '../support/stripe-spec-server';
import { addClient, install, SHIPPED_EXTENSIONS } from './shipped';

describe('stripe_cards: each charge of a stored account is made once per attempt (Idempotency-Key)', () => {
  let standIn: StripeStandIn;
  let server: TestServer;
  let clientId: number;
  let accountId: number;

  before(async () => {
    ({ standIn, server } = await startWithStripeStandIn({ extensionsDir: SHIPPED_EXTENSIONS }));
    await install(server, 'gateway_manager', 'vars[dir]=stripe_cards&vars[settings][secret_key]=sk_test_cards&vars[settings][webhook_secret]=whsec_test_idempotency');
    clientId = await addClient(server);
    accountId = await post('/api/accounts/addCc.json', `vars[client_id]=${clientId}&vars[gateway]=stripe_cards&vars[token]=pm_card_visa`);
  });
  after(async () => {
    await server?.close();
    await standIn?.close();
  });

  async function post(path: string, body: string) {
    const res = await server.request('POST', path, { body });
    expect(res.status, res.text).to.equal(200);
    return res.json.response;
  }
  const invoice = (amount: string): Promise<number> =>
    post(
      '/api/invoices/add.json',
      `vars[client_id]=${clientId}&vars[date_billed]=2026-11-01&vars[date_due]=2026-12-01&vars[currency]=USD&vars[lines][0][description]=Hosting&vars[lines][0][amount]=${amount}`,
    );
  const intentRequests = () => standIn.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
  const attempts = async () =>
    (
      await sql<{ id: number; idempotency_key: string; status: string; transaction_id: number | null; account_id: number; amount: string }>`select * from charge_attempts order by id`.execute(
        server.installation.db,
      )
    ).rows;

  it('sends each attempt’s own key, written down before Stripe is asked; two attempts are two charges', async () => {
    const before = intentRequests().length;
    const first = await post('/api/gateway_payments/payInvoice.json', `invoice_id=${await invoice('25.00')}&account_id=${accountId}`);
    const second = await post('/api/gateway_payments/payInvoice.json', `invoice_id=${await invoice('25.00')}&account_id=${accountId}`);
    expect(first.status).to.equal('approved');
    expect(second.status).to.equal('approved');
    expect(second.transaction_id).to.not.equal(first.transaction_id);
    const sent = intentRequests().slice(before);
    expect(sent).to.have.length(2);
    const keys = sent.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).to.match(/^tally-charge-[0-9a-f-]{36}$/);
    expect(keys[1], 'another attempt, another key: never merged with the first').to.not.equal(keys[0]);
    const kept = (await attempts()).slice(-2);
    expect(kept.map((a) => a.idempotency_key)).to.deep.equal(keys);
    expect(kept.map((a) => [a.status, Number(a.transaction_id), Number(a.account_id)])).to.deep.equal([
      ['approved', first.transaction_id, accountId],
      ['approved', second.transaction_id, accountId],
    ]);
  });

  it("charges the billing run's autodebit through the same attempts: its own key, the payment named by the account, a decline failed with Stripe's reason", async () => {
    const res = await server.request('PUT', '/api/settings/set.json', { body: 'key=autodebit_days_before_due&value=1' });
    expect(res.status, res.text).to.equal(200);
    const payer = await addClient(server, 'Payer');
    const decliner = await addClient(server, 'Decliner');
    const card = (client: number, token: string): Promise<number> => post('/api/accounts/addCc.json', `vars[client_id]=${client}&vars[gateway]=stripe_cards&vars[token]=${token}&vars[autodebit]=true`);
    const payerCard = await card(payer, 'pm_card_visa');
    await card(decliner, 'pm_card_visa_chargeDeclinedInsufficientFunds');
    const invoiceOf = (client: number): Promise<number> =>
      post(
        '/api/invoices/add.json',
        `vars[client_id]=${client}&vars[date_billed]=2027-03-01&vars[date_due]=2027-03-02&vars[currency]=USD&vars[lines][0][description]=Hosting&vars[lines][0][amount]=12.00`,
      );
    const paid = await invoiceOf(payer);
    const declined = await invoiceOf(decliner);
    const before = intentRequests().length;
    const run = (await runBilling(server.installation, { now: '2027-03-01 12:00:00' })).find((r) => r.task === 'autodebit')!;
    expect({ processed: run.processed, failed: run.failed }).to.deep.equal({ processed: 1, failed: 1 });
    expect(run.messages).to.deep.equal([`invoice ${declined}: declined: Your card has insufficient funds.`]);
    const sent = intentRequests().slice(before);
    const kept = (await attempts()).slice(-2);
    expect(sent.map((r) => r.headers['idempotency-key']).sort()).to.deep.equal(kept.map((a) => a.idempotency_key).sort());
    expect(kept.map((a) => a.status).sort()).to.deep.equal(['approved', 'declined']);
    const payment = (await server.request('GET', `/api/transactions/getList.json?client_id=${payer}`)).json.response[0];
    expect(payment).to.include({ status: 'approved', gateway: 'stripe_cards', account_id: payerCard, amount: '12.0000' });
    expect((await server.request('GET', `/api/invoices/get.json?invoice_id=${paid}`)).json.response.date_closed).to.be.a('string');
    expect((await server.request('GET', `/api/invoices/get.json?invoice_id=${declined}`)).json.response.date_closed).to.equal(null);
  });

  it('answers the same attempt asked again with the PaymentIntent already made: no second charge, no second transaction', async () => {
    const invoiceId = await invoice('30.00');
    const paid = await post('/api/gateway_payments/payInvoice.json', `invoice_id=${invoiceId}&account_id=${accountId}`);
    const [attempt] = (await attempts()).slice(-1);
    const intents = standIn.intents.size;
    const intentId = [...standIn.intents.keys()].at(-1)!;
    const reference = (await server.request('GET', `/api/accounts/getCc.json?account_id=${accountId}`)).json.response.reference_id;
    // The gateway asked again for the same attempt, as a rerun after a conflict or a crash asks it.
    const again = await post(
      '/api/stripe_cards.tokens/charge.json',
      `vars[client_id]=${clientId}&vars[reference_id]=${encodeURIComponent(reference)}&vars[amount]=30.00&vars[currency]=USD` +
        `&vars[invoices][0][invoice_id]=${invoiceId}&vars[invoices][0][amount]=30.0000&vars[idempotency_key]=${attempt.idempotency_key}`,
    );
    expect(intentRequests().at(-1)!.headers['idempotency-key']).to.equal(attempt.idempotency_key);
    expect(standIn.intents.size, 'Stripe made no second PaymentIntent').to.equal(intents);
    expect(again, 'the charge already made, recorded already').to.include({ status: 'approved', payment_intent: intentId, reference: intentId, transaction_id: null });
    const res = await server.request('GET', `/api/transactions/getList.json?client_id=${clientId}&status=all`);
    expect(res.json.response.filter((t: any) => t.transaction_id === intentId).map((t: any) => t.id)).to.deep.equal([paid.transaction_id]);
  });
});
