import 'reflect-metadata';
import path from 'node:path';
import { connect } from '../../core/db/connect';
import { assembleInstallation } from '../../host/assemble-installation';
import { startHostProcess, HostProcess } from '../../spec/support/host-process';
import { startPayPalStandIn } from '../../spec/support/paypal-stand-in';
import { startStripeStandIn } from '../../spec/support/stripe-stand-in';
import { PrivatePostgres } from '../support/private-postgres';
import { verify } from './checks';
import { Delivery, GenuinePayment, paypalDelivery, stripeDelivery } from './processor-notifications';
import { recordedOnce, reprocessUnfinished } from './payment-checks';

const EXTENSIONS = path.resolve(__dirname, '../../../extensions');
const STRIPE_SECRET = 'whsec_payments_soak';
const CLIENTS = 4;

export interface PaymentsSoakOptions {
  readonly seconds: number;
  /** Payments under way at once. */
  readonly concurrency: number;
  readonly log?: (line: string) => void;
}

export interface PaymentsSoakReport {
  readonly payments: GenuinePayment[];
  /** Notification deliveries by the status they were answered with (0: no answer). */
  readonly deliveries: Map<number, number>;
  readonly faults: string[];
  /** Notifications the callback kept as failed (or never finished), processed again as staff would. */
  readonly reprocessed: number;
  /** API writes retried under a new Idempotency-Key, their first key left running by the killed process. */
  abandonedKeys: number;
  readonly failures: string[];
}

/**
 * The payments soak: genuine notifications from Stripe Checkout (signed by the stripe package) and
 * PayPal (sent and verified by its stand-in) arrive at /callback on two host processes over a
 * private PostgreSQL, some twice at once, each retried until answered as a processor retries, while
 * one host process is killed and started again and the PostgreSQL server is restarted. Then staff's
 * remedy for a notification kept as failed (gateway_notifications/reprocess), and the checks: every
 * genuine payment recorded exactly once, nothing else recorded, every invoice balanced and paid.
 * Answers why it cannot run (no initdb/pg_ctl) as a string.
 */
export async function soakPayments(options: PaymentsSoakOptions): Promise<PaymentsSoakReport | string> {
  const log = options.log ?? (() => undefined);
  const postgres = await PrivatePostgres.start();
  if (typeof postgres === 'string') return postgres;
  const hosts: HostProcess[] = [];
  const stripe = await startStripeStandIn();
  const paypal = await startPayPalStandIn();
  try {
    const url = await postgres.createDatabase('tally_payments_soak');
    const app = paypal.app();
    const webhookId = paypal.webhook(app, 'http://127.0.0.1/each-delivery-names-its-host');
    const installation = await assembleInstallation({ databaseUrl: url });
    const caller = { companyId: 1, user: 'soak' };
    const credential = (await installation.call('api_keys', 'add', {}, caller)) as { user: string; key: string };
    const clients: number[] = [];
    for (let i = 0; i < CLIENTS; i++)
      clients.push((await installation.call('clients', 'add', { vars: { first_name: 'Soak', last_name: `Payer${i}`, email: `payer${i}@example.com` } }, caller)) as number);
    await installation.close();

    const env = { TALLY_EXTENSIONS_DIR: EXTENSIONS, TALLY_GATEWAY_TEST_HOSTS: `api.stripe.com=${stripe.url},api-m.sandbox.paypal.com=${paypal.url}`, DATABASE_TIMEOUT_MS: '3000' };
    hosts.push(...(await Promise.all([startHostProcess(url, env), startHostProcess(url, env)])));
    const headers = { 'SERVICE-API-USER': credential.user, 'SERVICE-API-KEY': credential.key };
    const api = new Api(hosts, headers);
    // Gateways are installed through a host process: the one that loads extensions.
    await api.ok('POST', 'gateway_manager/add', 'soak-stripe', { 'vars[dir]': 'stripe_checkout', 'vars[settings][secret_key]': 'sk_test_soak', 'vars[settings][webhook_secret]': STRIPE_SECRET });
    const paypalSettings = { client_id: app.clientId, client_secret: app.secret, webhook_id: webhookId, environment: 'sandbox' };
    await api.ok('POST', 'gateway_manager/add', 'soak-paypal', { 'vars[dir]': 'paypal_checkout', ...Object.fromEntries(Object.entries(paypalSettings).map(([k, v]) => [`vars[settings][${k}]`, v])) });
    const report: PaymentsSoakReport = { payments: [], deliveries: new Map(), faults: [], reprocessed: 0, abandonedKeys: 0, failures: [] };
    const deadline = Date.now() + options.seconds * 1000;
    let next = 0;

    /** Retries a delivery as a processor does until Tally answers 2xx; a 4xx refusal of a genuine notification is a failure. */
    const deliver = async (delivery: Delivery, what: string) => {
      for (let attempt = 0; ; attempt++) {
        const status = await delivery(api.base());
        report.deliveries.set(status, (report.deliveries.get(status) ?? 0) + 1);
        if (status >= 200 && status < 300) return;
        if (status >= 400 && status < 500 && status !== 429) return void report.failures.push(`${what}: refused with ${status}`);
        if (Date.now() > deadline + 120_000) return void report.failures.push(`${what}: never taken (last answer ${status})`);
        await sleep(Math.min(2000, 100 * 2 ** Math.min(attempt, 4)));
      }
    };

    const payer = async () => {
      while (Date.now() < deadline) {
        const n = ++next;
        const clientId = clients[n % CLIENTS];
        const amount = `${10 + (n % 40)}.${String(n % 100).padStart(2, '0')}`;
        const invoiceId = await api.ok('POST', 'invoices/add', `soak-invoice-${n}`, {
          'vars[client_id]': clientId,
          'vars[date_billed]': '2026-11-01T00:00:00Z',
          'vars[date_due]': '2026-12-01T00:00:00Z',
          'vars[currency]': 'USD',
          'vars[lines][0][description]': `Soak ${n}`,
          'vars[lines][0][amount]': amount,
        });
        let delivery: Delivery;
        let payment: GenuinePayment;
        if (n % 2) {
          payment = { gateway: 'stripe_checkout', reference: `pi_soak_${n}`, amount, invoiceId };
          delivery = stripeDelivery(STRIPE_SECRET, clientId, payment);
        } else {
          const built = await api.ok('POST', 'paypal_checkout.payments/buildProcess', `soak-order-${n}`, {
            'vars[client_id]': clientId,
            'vars[amount]': amount,
            'vars[currency]': 'USD',
            'vars[return_url]': 'https://billing.example.com/paid',
            'vars[invoices][0][invoice_id]': invoiceId,
          });
          paypal.approve(built.order_id);
          const returned = await api.ok('POST', 'paypal_checkout.payments/success', `soak-return-${n}`, { 'vars[token]': built.order_id });
          payment = { gateway: 'paypal_checkout', reference: returned.transaction_id, amount, invoiceId };
          delivery = paypalDelivery(paypal, webhookId, paypal.captures.get(returned.transaction_id)!);
        }
        report.payments.push(payment);
        // One in three arrives twice at once (a processor's retry racing the first attempt), at whichever processes.
        await Promise.all(Array.from({ length: n % 3 === 0 ? 2 : 1 }, () => deliver(delivery, `${payment.gateway} ${payment.reference}`)));
      }
    };

    const faults = (async () => {
      await sleep((options.seconds * 1000) / 3);
      const victim = hosts[0];
      victim.child.kill('SIGKILL');
      report.faults.push(`killed host process ${victim.pid} (SIGKILL)`);
      await new Promise((resolve) => victim.child.once('exit', resolve));
      hosts[0] = await startHostProcess(url, env);
      report.faults.push(`started host process ${hosts[0].pid} in its place`);
      await sleep((options.seconds * 1000) / 3);
      const started = Date.now();
      postgres.restart();
      report.faults.push(`restarted PostgreSQL (pg_ctl restart -m fast, ${Date.now() - started} ms)`);
    })();

    await Promise.all([faults, ...Array.from({ length: options.concurrency }, payer)]);
    report.abandonedKeys = api.abandonedKeys;
    log(`${report.payments.length} payments made; checking`);
    const { db } = connect(url);
    try {
      (report as { reprocessed: number }).reprocessed = await reprocessUnfinished(db, (id) => api.ok('POST', 'gateway_notifications/reprocess', `soak-reprocess-${id}`, { notification_id: id }));
      report.failures.push(...(await recordedOnce(db, report.payments)));
      report.failures.push(...(await verify(db, { invoices: report.payments.map((p) => p.invoiceId), payments: [] })));
    } finally {
      await db.destroy();
    }
    return report;
  } finally {
    await Promise.all(hosts.map((h) => h.stop().catch(() => undefined)));
    await stripe.close();
    await paypal.close();
    postgres.destroy();
  }
}

/** The API over whichever host process is up, each write with an Idempotency-Key so a retry after a lost answer does it once. */
class Api {
  constructor(
    private readonly hosts: HostProcess[],
    private readonly headers: Record<string, string>,
  ) {}

  /** A host process picked at random (one may be down: its callers retry). */
  base(): string {
    return this.hosts[Math.floor(Math.random() * this.hosts.length)].base;
  }

  /** Writes whose Idempotency-Key was left running by a killed process and retried under a new key. */
  abandonedKeys = 0;

  /**
   * Retries until 200 (a killed process, a restarting database answer nothing or 503) and answers
   * `response`; a 4xx is a bug and throws. A key claimed by a process killed mid-call answers 409
   * until it is abandoned (5 minutes): after 10 s of that, the write is retried under a new key, as
   * a client that cannot wait would. The first attempt either committed, leaving an invoice or an
   * order nobody pays (which must still balance), or did not.
   */
  async ok(verb: string, method: string, key: string, form: Record<string, string | number>): Promise<any> {
    const body = new URLSearchParams(Object.entries(form).map(([k, v]) => [k, String(v)])).toString();
    let last = 'no answer';
    let sent = key;
    let runningSince: number | null = null;
    for (let attempt = 0; attempt < 400; attempt++) {
      const response = await fetch(`${this.base()}/api/${method}.json`, {
        method: verb,
        headers: { ...this.headers, 'content-type': 'application/x-www-form-urlencoded', 'Idempotency-Key': sent },
        body,
        signal: AbortSignal.timeout(15_000),
      }).catch(() => null);
      const text = response ? await response.text().catch(() => '') : '';
      if (response?.status === 200) return JSON.parse(text).response;
      last = response ? `${response.status} ${text.slice(0, 200)}` : 'no answer';
      if (response?.status === 409) {
        runningSince ??= Date.now();
        if (Date.now() - runningSince > 10_000) {
          this.abandonedKeys++;
          sent = `${key}-again-${attempt}`;
          runningSince = null;
        }
      } else if (response && response.status >= 400 && response.status < 500 && response.status !== 429) throw new Error(`${method} answered ${last}`);
      await sleep(250);
    }
    throw new Error(`${method} never answered 200 (last: ${last})`);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
