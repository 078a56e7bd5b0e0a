import http from 'node:http';
import { AddressInfo } from 'node:net';
import { Installation } from '../../core/installation';
import { DeliveryWorker } from '../../core/events/delivery-worker';
import { eventsDb } from '../../core/events/event-tables';

/**
 * The billing run's events: counted after the run (one Invoices.createFromServices per invoice, one
 * Services.renew per service: a run that lost one is WRONG), and, with BENCH_BILLING_WEBHOOK=1,
 * delivered while it runs to one subscribed endpoint on a local receiver by a worker in this
 * process: `drained()` answers when the last of them arrived.
 */
export class BillingRunEvents {
  private received = 0;

  private constructor(
    private readonly installation: Installation,
    private readonly server: http.Server | null,
    private readonly worker: DeliveryWorker | null,
  ) {}

  static async open(databaseUrl: string, deliver: boolean): Promise<BillingRunEvents> {
    const installation = await Installation.open({ databaseUrl, cacheTtlMs: 1000 });
    if (!deliver) return new BillingRunEvents(installation, null, null);
    let events: BillingRunEvents;
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        events.received++;
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    await installation.settings.set(0, 'webhooks_allow_http', 'true');
    await installation.settings.set(0, 'webhooks_allow_private_addresses', 'true');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    await installation.call('webhooks', 'add', { vars: { url, event_types: ['Invoices.createFromServices', 'Services.renew'] } }, { companyId: 1, user: 'bench' });
    const worker = new DeliveryWorker(installation, [], { pollMs: 100 });
    events = new BillingRunEvents(installation, server, worker);
    worker.start();
    return events;
  }

  /** Throws unless the run left one event per invoice and per service renewed. */
  async check(invoices: number, services: number): Promise<number> {
    const db = eventsDb(this.installation.db);
    const rows = await db
      .selectFrom('events')
      .select(['type', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('type')
      .execute();
    const count = (type: string) => Number(rows.find((r) => r.type === type)?.n ?? 0);
    if (count('Invoices.createFromServices') !== invoices || count('Services.renew') !== services) {
      throw new Error(
        `billing run: WRONG events: ${count('Invoices.createFromServices')} Invoices.createFromServices for ${invoices} invoices, ${count('Services.renew')} Services.renew for ${services} services`,
      );
    }
    return invoices + services;
  }

  /** Resolves once `expected` deliveries have reached the receiver. */
  async drained(expected: number): Promise<void> {
    while (this.received < expected) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  async close(): Promise<void> {
    await this.worker?.stop();
    if (this.server) {
      this.server.closeAllConnections();
      await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    }
    await this.installation.close();
  }
}
