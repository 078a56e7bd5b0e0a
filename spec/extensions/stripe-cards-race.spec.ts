import { expect } from 'chai';
import { sql } from 'kysely';
import { isPostgres } from '../../core/db/is-postgres';
import { TestServer } from '../support/test-server';
import { StripeStandIn } from '../support/stripe-stand-in';
import { sendSignedByStripe, startWithStripeStandIn, stripeEvent } from '../support/stripe-spec-server';
import { addClient, install, SHIPPED_EXTENSIONS } from './shipped';

const WEBHOOK_SECRET = 'whsec_test_stripe_cards_race';
const CALLBACK = '/callback/mgw/1/stripe_cards/';

/**
 * A charge and Stripe's notification about it recording the same PaymentIntent at the same time.
 * On PostgreSQL the spec holds the invoice's row lock (both recordings lock the invoice before
 * inserting the transaction) so the notification's insert and the charge's are made in a known
 * order, each still uncommitted while the other writes; on SQLite, whose writers take turns, the
 * two run as they come.
 */
describe('stripe_cards: a charge racing Stripe’s notification about it', () => {
  let standIn: StripeStandIn;
  let server: TestServer;
  let clientId: number;

  before(async () => {
    ({ standIn, server } = await startWithStripeStandIn({ extensionsDir: SHIPPED_EXTENSIONS }));
    await install(server, 'gateway_manager', `vars[dir]=stripe_cards&vars[settings][secret_key]=sk_test_cards&vars[settings][webhook_secret]=${WEBHOOK_SECRET}`);
    clientId = await addClient(server);
  });
  after(async () => {
    await server?.close();
    await standIn?.close();
  });

  const post = async (path: string, body: string) => {
    const res = await server.request('POST', path, { body });
    expect(res.status, res.text).to.equal(200);
    return res.json.response;
  };
  const get = async (path: string) => {
    const res = await server.request('GET', path);
    expect(res.status, res.text).to.equal(200);
    return res.json.response;
  };
  const invoice = (amount: string): Promise<number> =>
    post(
      '/api/invoices/add.json',
      `vars[client_id]=${clientId}&vars[date_billed]=2026-11-01&vars[date_due]=2026-12-01&vars[currency]=USD&vars[lines][0][description]=Hosting&vars[lines][0][amount]=${amount}`,
    );
  const transactionsOf = async (reference: string) => (await get(`/api/transactions/getList.json?client_id=${clientId}&status=all`)).filter((t: any) => t.transaction_id === reference);
  const until = async (what: string, done: () => Promise<boolean> | boolean) => {
    for (let waited = 0; !(await done()); waited += 20) {
      if (waited > 10_000) throw new Error(`Timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  /** Sessions of the test database waiting on a lock (PostgreSQL). */
  const waiting = async () =>
    Number((await sql<{ n: string }>`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(server.installation.db)).rows[0].n);

  /** Holds the invoice's row lock, on PostgreSQL, until `release` is called; nothing on SQLite. */
  async function holdInvoice(invoiceId: number): Promise<{ release: () => Promise<void> }> {
    if (!isPostgres(server.installation.db)) return { release: async () => undefined };
    let locked!: () => void;
    let release!: () => void;
    const taken = new Promise<void>((resolve) => (locked = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    const held = server.installation.db.transaction().execute(async (tx) => {
      await sql`select id from invoices where id = ${invoiceId} for update`.execute(tx);
      locked();
      await released;
    });
    await taken;
    return {
      release: async () => {
        release();
        await held;
      },
    };
  }

  for (const first of ['notification', 'charge'] as const) {
    it(`answers payInvoice approved with the one transaction, recorded once, when the ${first}'s insert is still uncommitted as the other inserts`, async function () {
      const invoiceId = await invoice('47.00');
      const accountId = await post('/api/accounts/addCc.json', `vars[client_id]=${clientId}&vars[gateway]=stripe_cards&vars[token]=pm_card_visa`);
      const known = new Set(standIn.intents.keys());
      const answerIntents = standIn.holdPaymentIntents();
      const lock = await holdInvoice(invoiceId);
      const held = isPostgres(server.installation.db);
      let paying: Promise<{ status: number; text: string; json: any }> | undefined;
      let notified: Promise<{ status: number; text: string }> | undefined;
      try {
        paying = server.request('POST', '/api/gateway_payments/payInvoice.json', { body: `invoice_id=${invoiceId}&account_id=${accountId}` });
        await until('the PaymentIntent', () => [...standIn.intents.keys()].some((id) => !known.has(id)));
        const intent = [...standIn.intents.values()].find((i) => !known.has(i.id))!;
        const notify = () => sendSignedByStripe(server, CALLBACK, stripeEvent('payment_intent.succeeded', intent), { secret: WEBHOOK_SECRET });
        // Whoever waits on the invoice's lock first takes it first, and inserts while the other waits behind it.
        if (first === 'notification') {
          notified = notify();
          if (held) await until('the notification to wait on the invoice', async () => (await waiting()) === 1);
          answerIntents();
          if (held) await until('the charge to wait on the invoice', async () => (await waiting()) === 2);
        } else {
          answerIntents();
          if (held) await until('the charge to wait on the invoice', async () => (await waiting()) === 1);
          notified = notify();
          if (held) await until('the notification to wait on the invoice', async () => (await waiting()) === 2);
        }
      } finally {
        answerIntents();
        await lock.release();
      }
      const [answer, notification] = await Promise.all([paying!, notified!]);
      const postgres = isPostgres(server.installation.db);
      expect(answer.status, answer.text).to.equal(200);
      expect(notification.status, notification.text).to.equal(200);
      const made = [...standIn.intents.keys()].filter((id) => !known.has(id));
      expect(made, 'one PaymentIntent: the card is charged once').to.have.length(1);
      const intentId = made[0];
      const recorded = await transactionsOf(intentId);
      expect(recorded, 'one transaction for the PaymentIntent').to.have.length(1);
      expect(recorded[0]).to.include({ status: 'approved', amount: '47.0000', account_id: accountId });
      expect(answer.json.response).to.deep.equal({ status: 'approved', message: 'Approved.', transaction_id: recorded[0].id });
      const [kept] = await get('/api/gateway_notifications/getList.json');
      // On SQLite the two take turns in whichever order they come; on PostgreSQL the first to take the invoice records it.
      if (postgres) expect(kept.verdict, 'the notification recorded it, or found it recorded').to.equal(first === 'notification' ? 'recorded' : 'duplicate');
      else expect(kept.verdict).to.be.oneOf(['recorded', 'duplicate']);
      expect(kept.transaction_id).to.equal(recorded[0].id);
      const paid = await get(`/api/invoices/get.json?invoice_id=${invoiceId}`);
      expect(paid.paid, 'paid once').to.match(/^47\.0+$/);
      expect(paid.date_closed).to.be.a('string');
    });
  }
});
