import http from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * The soak's webhook receiver: a real HTTP server on a loopback port that refuses a share of the
 * requests (503), can go away for a while (its port closed: connections refused) and come back on
 * the same port, and verifies every other request with the `standardwebhooks` package unchanged.
 * It counts what it got by `webhook-id`, and notes every request whose id differs from its body's
 * or whose signature does not verify.
 */
export class FlakyReceiver {
  /** Requests by webhook-id, whatever was answered. */
  readonly requests = new Map<string, number>();
  /** Webhook-ids answered 2xx after their signature verified. */
  readonly delivered = new Set<string>();
  readonly problems: string[] = [];
  refused = 0;
  secret = '';
  private server!: http.Server;
  private port = 0;

  constructor(private readonly failRate: number) {}

  static async start(failRate: number): Promise<FlakyReceiver> {
    const receiver = new FlakyReceiver(failRate);
    await receiver.listen();
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/soak-hook`;
  }

  /** Closes the port (in-flight requests cut off) for `ms`, then listens on the same port again. */
  async away(ms: number): Promise<void> {
    await this.close();
    await new Promise((resolve) => setTimeout(resolve, ms));
    await this.listen();
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async listen(): Promise<void> {
    this.server = http.createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const id = String(req.headers['webhook-id'] ?? '');
      this.requests.set(id, (this.requests.get(id) ?? 0) + 1);
      if (Math.random() < this.failRate) {
        this.refused++;
        res.writeHead(503).end('soak: refused on purpose');
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        const event = new Webhook(this.secret).verify(body, {
          'webhook-id': id,
          'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
          'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
        }) as { id: string };
        if (event.id !== id) throw new Error(`webhook-id ${id} carries the body of event ${event.id}`);
        this.delivered.add(id);
        res.writeHead(204).end();
      } catch (error) {
        this.problems.push(`${id}: ${error instanceof Error ? error.message : String(error)}`);
        res.writeHead(400).end();
      }
    });
  }
}
