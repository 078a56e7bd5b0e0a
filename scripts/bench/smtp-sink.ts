import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** An SMTP server that accepts and counts. */
export class Sink {
  count = 0;
  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  static async start(): Promise<Sink> {
    let sink: Sink | undefined;
    const server = new SMTPServer({
      authOptional: true,
      // No reverse DNS lookup of each connecting client: a local server for measuring, not for the world.
      disableReverseLookup: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, _session, callback) {
        stream.resume();
        stream.on('end', () => {
          sink!.count++;
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    sink = new Sink(server, (server.server.address() as AddressInfo).port);
    return sink;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
