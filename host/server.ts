import http from 'node:http';
import net, { AddressInfo } from 'node:net';
import { config } from '../core/config';
import { Installation } from '../core/installation';
import { createApp } from './app';
import { answerClientError, answerUnknownExpectation } from './client-error';
import { createLogger, Logger } from './logger';

/** In-flight calls get this long to finish when the server stops. */
const DRAIN_LIMIT_MS = 15_000;
/** Idle keep-alive connections are closed this long after the server starts draining. */
const IDLE_GRACE_MS = 500;

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
  /** Trust X-Forwarded-* from a reverse proxy; defaults to TRUST_PROXY. */
  trustProxy?: boolean;
  /** Time-outs and the connection cap; each defaults to its setting (docs/operations.md). */
  limits?: Partial<ConnectionLimits>;
  /** Trusted proxies appending to X-Forwarded-For; defaults to TALLY_PROXY_HOPS. */
  proxyHops?: number;
}

export interface ConnectionLimits {
  /** A client must send its request headers within this time (TALLY_HEADERS_TIMEOUT_MS). */
  headersTimeoutMs: number;
  /** ... and the whole request within this time (TALLY_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number;
  /** Open connections accepted at once; more are closed as they arrive (TALLY_MAX_CONNECTIONS). */
  maxConnections: number;
}

/**
 * Slow clients cannot hold the process: a connection that has not sent its headers in time, or
 * its whole request, is answered 408 and closed (checked every second, not Node's 30 s), an idle
 * keep-alive connection is closed after 5 s, and connections past the cap are refused at once,
 * so a flood of half-open requests costs a bounded number of sockets.
 */
function connectionLimits(given: Partial<ConnectionLimits> = {}): ConnectionLimits {
  const headersTimeoutMs = given.headersTimeoutMs ?? config().headersTimeoutMs;
  return {
    headersTimeoutMs,
    // Node refuses a request time-out shorter than the headers' one.
    requestTimeoutMs: Math.max(headersTimeoutMs, given.requestTimeoutMs ?? config().requestTimeoutMs),
    maxConnections: given.maxConnections ?? config().maxConnections,
  };
}

/** Listens on `port` (0 for any free port). Rejects with a clear message when the port is taken. */
export async function serve(options: ServeOptions): Promise<RunningServer> {
  const logger = options.logger ?? createLogger();
  const app = createApp(options.installation, logger, { trustProxy: options.trustProxy, proxyHops: options.proxyHops });
  const handle = app.callback();
  let draining = false;
  // While draining, every response tells its client to reconnect (to another process).
  // 64 KiB of request head (Node's default is 16): room for a GET or DELETE with long bracket lists.
  const limits = connectionLimits(options.limits);
  const server = http.createServer(
    {
      maxHeaderSize: 64 * 1024,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: 1000,
    },
    (req, res) => {
      if (draining) res.setHeader('Connection', 'close');
      return handle(req, res);
    },
  );
  server.keepAliveTimeout = 5000;
  server.maxConnections = limits.maxConnections;
  server.on('clientError', answerClientError);
  server.on('checkExpectation', answerUnknownExpectation);
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
        draining = true;
        await new Promise<void>((resolve) => {
          // net's close, not http's: http's would also drop idle keep-alive connections at once,
          // failing a request a client is sending on one at that instant. For a moment they stay
          // open, and a call arriving on one is answered with Connection: close.
          net.Server.prototype.close.call(server, () => resolve());
          setTimeout(() => server.closeIdleConnections(), IDLE_GRACE_MS).unref();
          setTimeout(() => server.closeAllConnections(), DRAIN_LIMIT_MS).unref();
        });
        await options.installation.close();
      })();
      return closing;
    },
  };
}
