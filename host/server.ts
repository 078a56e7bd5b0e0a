import http from 'node:http';
import { AddressInfo } from 'node:net';
import { Installation } from '../core/installation';
import { createApp } from './app';
import { answerClientError } from './client-error';
import { createLogger, Logger } from './logger';

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly installation: Installation;
  /** Stops taking connections, lets in-flight calls finish, then closes the database. */
  close(): Promise<void>;
}

export interface ServeOptions {
  installation: Installation;
  port?: number;
  host?: string;
  logger?: Logger;
}

/** Listens on `port` (0 for any free port). Rejects with a clear message when the port is taken. */
export async function serve(options: ServeOptions): Promise<RunningServer> {
  const logger = options.logger ?? createLogger();
  const app = createApp(options.installation, logger);
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 5000;
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') reject(new Error(`Port ${options.port} is already in use. Set PORT to a free port, e.g. PORT=8081 npm start.`));
      else if (error.code === 'EACCES') reject(new Error(`Not allowed to listen on port ${options.port}. Use a port above 1023.`));
      else reject(error);
    });
    server.listen(options.port ?? 8080, options.host ?? '0.0.0.0', resolve);
  });
  const port = (server.address() as AddressInfo).port;
  const shownHost = !options.host || options.host === '0.0.0.0' || options.host === '::' ? 'localhost' : options.host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    installation: options.installation,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        await options.installation.close();
      })();
      return closing;
    },
  };
}
