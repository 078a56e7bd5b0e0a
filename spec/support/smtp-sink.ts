import { AddressInfo } from 'node:net';
import { simpleParser, ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One message as the server accepted it: the envelope and the parsed message. */
export interface Received {
  readonly envelopeTo: string[];
  readonly mail: ParsedMail;
  readonly raw: string;
}

/**
 * A real SMTP server for specs (smtp-server, plain, no authentication), reading what arrives with
 * mailparser. `refuse` answers a temporary failure (451) to that many messages before accepting.
 */
export class SmtpSink {
  readonly received: Received[] = [];
  /** Messages refused so far. */
  refused = 0;
  refuse = 0;

  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  static async start(): Promise<SmtpSink> {
    let sink: SmtpSink | undefined;
    const server = new SMTPServer({
      secure: false,
      authOptional: true,
      // No reverse DNS lookup of each connecting client: a local server for measuring, not for the world.
      disableReverseLookup: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', async () => {
          if (sink!.refused < sink!.refuse) {
            sink!.refused++;
            const error = Object.assign(new Error('Try again later: spec server busy'), { responseCode: 451 });
            return callback(error);
          }
          const raw = Buffer.concat(chunks).toString('utf8');
          sink!.received.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), mail: await simpleParser(raw), raw });
          callback(null, 'Queued by the spec server');
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    sink = new SmtpSink(server, (server.server.address() as AddressInfo).port);
    return sink;
  }

  /** Waits until `check` answers something (the condition, never a fixed time). */
  async until<T>(check: () => T | undefined | false, timeoutMs = 15_000): Promise<T> {
    const end = Date.now() + timeoutMs;
    for (;;) {
      const value = check();
      if (value) return value;
      if (Date.now() > end) throw new Error(`timed out waiting for mail (received ${this.received.length}, refused ${this.refused})`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
