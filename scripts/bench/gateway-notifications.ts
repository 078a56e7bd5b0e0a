import http from 'node:http';
import Stripe from 'stripe';
import { Installation } from '../../core/installation';
import { paymentsDb } from '../../core/payments/payment-tables';
import { loadExtensions } from '../../host/extensions/load-extensions';
import { createLogger } from '../../host/logger';
import { createScratchDatabase } from '../support/scratch-database';
import { freePort, startTally, withProcess } from './processes';

const SECRET = 'whsec_bench';

/** The two ways a payment comes back: an off-site Checkout payment, and a charge of a saved card whose answer Tally never heard (Stripe's notification records it). */
const FLOWS = [
  {
    gateway: 'stripe_checkout',
    path: '/callback/gw/1/stripe_checkout/',
    event: (i: number, clientId: number) => ({
      type: 'checkout.session.completed',
      data: {
        object: { payment_intent: `pi_bench_${i}`, amount_total: 1000, currency: 'usd', payment_status: 'paid', metadata: { tally_company_id: '1', client_id: String(clientId), invoices: '' } },
      },
    }),
  },
  {
    gateway: 'stripe_cards',
    path: '/callback/mgw/1/stripe_cards/',
    event: (i: number, clientId: number) => ({
      type: 'payment_intent.succeeded',
      data: {
        object: {
          id: `pi_bench_${i}`,
          object: 'payment_intent',
          amount: 1000,
          amount_received: 1000,
          currency: 'usd',
          status: 'succeeded',
          metadata: { tally_company_id: '1', client_id: String(clientId), invoices: '' },
        },
      },
    }),
  },
] as const;

type Flow = (typeof FLOWS)[number];

/**
 * Gateway notifications processed per second (verify the Stripe-Signature in the sandbox, keep it
 * in the inbox, record the transaction once, apply it, queue the client's receipt), through `tally
 * serve` on SQLite (1 process) and PostgreSQL (2 processes), for each flow: Stripe Checkout's
 * (non-merchant, /callback/gw) and stripe_cards' (merchant, /callback/mgw). BENCH_NOTIFICATIONS
 * distinct signed notifications (default 2000), BENCH_CONNECTIONS at once (default 10). Checked
 * afterwards: one transaction per notification, none lost, none doubled. `BENCH_ONLY=payments`
 * measures this alone. Extensions get two minutes to load: on a busy machine the default 10 s left
 * the gateway out of a process, and every notification it took was (rightly) recorded as failed.
 */
export async function measureGatewayNotifications(postgresUrl: string | null): Promise<void> {
  const count = Number(process.env.BENCH_NOTIFICATIONS ?? 2000);
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
  const targets = [{ label: 'SQLite, 1 process', url: undefined, workers: 1 }, ...(postgresUrl ? [{ label: 'PostgreSQL, 2 processes', url: postgresUrl, workers: 2 }] : [])];
  for (const target of targets) {
    for (const flow of FLOWS) {
      const database = await createScratchDatabase(target.url, 'tally_bench_payments');
      try {
        const clientId = await prepare(database.url, flow);
        const port = await freePort();
        const rate = await withProcess(startTally(database.url, port, { TALLY_WORKERS: String(target.workers), TALLY_CALLBACK_RATE_LIMIT: '0', TALLY_EXTENSION_LOAD_MS: '120000' }), port, () =>
          send(port, flow, clientId, count, connections),
        );
        const { recorded, verdicts } = await countRecorded(database.url, flow);
        if (recorded !== count) throw new Error(`payments: WRONG: ${recorded} ${flow.gateway} transactions for ${count} notifications; the inbox: ${JSON.stringify(verdicts)}`);
        console.log(`payments (${flow.gateway}), ${target.label}: ${count} signed notifications verified, kept, recorded once and applied at ${rate.toFixed(0)}/s (${connections} at once)`);
      } finally {
        await database.drop();
      }
    }
  }
}

/** Migrates the database, installs the flow's gateway for company 1, adds the paying client. */
async function prepare(databaseUrl: string, flow: Flow): Promise<number> {
  const installation = await Installation.open({ databaseUrl });
  try {
    await loadExtensions(installation, { logger: createLogger('silent') });
    const caller = { companyId: 1, user: 'bench' };
    await installation.call('gateway_manager', 'add', { vars: { dir: flow.gateway, settings: { secret_key: 'sk_test_bench', webhook_secret: SECRET } } }, caller);
    return (await installation.call('clients', 'add', { vars: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' } }, caller)) as number;
  } finally {
    await installation.close();
  }
}

async function send(port: number, flow: Flow, clientId: number, count: number, connections: number): Promise<number> {
  const stripe = new Stripe('sk_test_unused');
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  let next = 0;
  const one = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const body = JSON.stringify(flow.event(i, clientId));
      const headers = {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET }),
      };
      const req = http.request({ host: '127.0.0.1', port, path: flow.path, method: 'POST', agent, headers }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`payments: notification ${i} answered ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end(body);
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < count) await one(next++);
    }),
  );
  agent.destroy();
  return count / ((performance.now() - started) / 1000);
}

/** The transactions recorded, and the inbox's verdicts and reasons (to say what went wrong). */
async function countRecorded(databaseUrl: string, flow: Flow) {
  const installation = await Installation.open({ databaseUrl });
  try {
    const row = await installation.db
      .selectFrom('transactions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('gateway', '=', flow.gateway)
      .executeTakeFirstOrThrow();
    const verdicts = await paymentsDb(installation.db)
      .selectFrom('gateway_notifications')
      .select(['verdict', 'reason', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy(['verdict', 'reason'])
      .execute();
    return { recorded: Number(row.n), verdicts };
  } finally {
    await installation.close();
  }
}
