import http from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the receiver got, and what the independent verifier made of it. */
export interface Received {
  readonly id: string;
  readonly timestamp: string;
  readonly signature: string;
  readonly body: string;
  /** The parsed body, when a secret verified it; undefined otherwise. */
  readonly event: any;
  /** Which of the receiver's secrets verified it (its index), or -1. */
  readonly verifiedBy: number;
  readonly answered: number;
}

/**
 * A webhook receiver for specs: a real HTTP server on an ephemeral port that checks every request
 * with the `standardwebhooks` package, unchanged, against the secrets it is given, and answers what
 * `answer` says (200 by default; a number, or a function of the request's body).
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  secrets: string[] = [];
  answer: (event: any, attempt: number) => number | 'hang' = () => 200;
  private server!: http.Server;
  private readonly hanging = new Set<http.ServerResponse>();

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    receiver.server = http.createServer((req, res) => receiver.handle(req, res));
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Verified requests for an event id, in arrival order. */
  forEvent(id: string): Received[] {
    return this.received.filter((r) => r.id === id);
  }

  verified(): any[] {
    return this.received.filter((r) => r.verifiedBy >= 0).map((r) => r.event);
  }

  async until<T>(check: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const value = check();
      if (value) return value;
      if (Date.now() > end) throw new Error('webhook receiver: timed out waiting');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(req.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
      };
      let event: any;
      let verifiedBy = -1;
      this.secrets.forEach((secret, index) => {
        if (verifiedBy >= 0) return;
        try {
          event = new Webhook(secret).verify(body, headers);
          verifiedBy = index;
        } catch {
          // Not this secret.
        }
      });
      const attempt = this.received.filter((r) => r.id === headers['webhook-id']).length + 1;
      const answer = this.answer(event, attempt);
      this.received.push({
        id: headers['webhook-id'],
        timestamp: headers['webhook-timestamp'],
        signature: headers['webhook-signature'],
        body,
        event,
        verifiedBy,
        answered: answer === 'hang' ? 0 : answer,
      });
      if (answer === 'hang') {
        this.hanging.add(res);
        return;
      }
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : `refused ${answer}`);
    });
  }
}
