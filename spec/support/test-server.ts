import { CallHooks } from '../../core/call-hooks';
import { Installation } from '../../core/installation';
import { assembleInstallation } from '../../host/assemble-installation';
import { SandboxLimits } from '../../host/extensions/sandbox-limits';
import { createLogger } from '../../host/logger';
import { RunningServer, serve } from '../../host/server';
import { createTestDatabase, TestDatabase } from './test-database';
import { TrustPolicy, TrustPolicyValues } from '../../core/identity/policy';
import { DeliveryWorker, DeliveryWorkerOptions } from '../../core/events/delivery-worker';
import { EventConsumers } from '../../core/events/consumer-registry';
import { OutboxBell } from '../../core/events/outbox-bell';
import { MailWorker, MailWorkerOptions } from '../../core/delivery/mail-worker';

export interface Credential {
  readonly user: string;
  readonly key: string;
}

export interface TestServer {
  readonly url: string;
  readonly installation: Installation;
  readonly database: TestDatabase;
  /** A company credential of company 1, created for the test. */
  readonly credential: Credential;
  /** An installation credential (home company 1): other companies, companies/add, system settings, staff identities. */
  readonly installationCredential: Credential;
  /** Creates another company credential (for another company, say), optionally scoped (vars of api_keys/add). */
  credentialFor(companyId: number, vars?: Record<string, unknown>): Promise<Credential>;
  /** HTTP request with the test credential in headers; `auth: false` sends none. */
  request(verb: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  /** The event delivery worker, when the server was started with `events`. */
  readonly deliveries?: DeliveryWorker;
  /** The mail worker, when the server was started with `mail`. */
  readonly mail?: MailWorker;
  close(): Promise<void>;
}

export interface RequestOptions {
  /** Sent as `application/x-www-form-urlencoded` (a string) or JSON (an object). */
  body?: string | Record<string, unknown>;
  headers?: Record<string, string>;
  auth?: false | Credential | { basic: Credential };
}

export interface TestResponse {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  readonly json: any;
  readonly headers: Headers;
}

export interface TestServerOptions {
  cacheTtlMs?: number;
  /** Loads the extensions found in this directory (none are loaded without it). */
  extensionsDir?: string;
  /** Sandbox limits for those extensions (heap, per-call deadline, load time). */
  extensionLimits?: Partial<SandboxLimits>;
  /** Serve as behind a reverse proxy (X-Forwarded-* trusted). */
  trustProxy?: boolean;
  sqliteWaitMs?: number;
  /** PostgreSQL's longest wait for a connection and longest statement (DATABASE_TIMEOUT_MS's default when not given). */
  databaseTimeoutMs?: number;
  /** Abuse limits and browser rules; lock-out state is never cached unless stateCacheMs is given. */
  trust?: Partial<TrustPolicyValues>;
  /** Trusted proxies appending to X-Forwarded-For (with trustProxy). */
  proxyHops?: number;
  /** Further call path hooks, added as the composition root adds its own. */
  hooks?: (hooks: CallHooks, installation: Installation) => void;
  /** Runs the event delivery worker (webhooks) with these options; none runs without it. */
  events?: DeliveryWorkerOptions;
  /** Runs the mail worker (the mail outbox) with these options; none runs without it. */
  mail?: MailWorkerOptions;
  /** Serves this database (a private PostgreSQL a spec stops and starts, say) instead of a fresh one, which it leaves in place. */
  databaseUrl?: string;
}

/** A real Tally server on an ephemeral port over a fresh database, for one spec file or test. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const database = options.databaseUrl ? { url: options.databaseUrl, drop: async () => undefined } : await createTestDatabase();
  const logger = createLogger(process.env.LOG_LEVEL ?? 'silent');
  const installation = await assembleInstallation({
    databaseUrl: database.url,
    cacheTtlMs: options.cacheTtlMs ?? 0,
    sqliteWaitMs: options.sqliteWaitMs,
    databaseTimeoutMs: options.databaseTimeoutMs,
    trust: new TrustPolicy({ stateCacheMs: 0, ...options.trust }),
    extensions: options.extensionsDir ? { dir: options.extensionsDir, logger, limits: options.extensionLimits, cacheTtlMs: options.cacheTtlMs ?? 0 } : undefined,
    hooks: options.hooks,
  });
  const server: RunningServer = await serve({ installation, port: 0, host: '127.0.0.1', logger, trustProxy: options.trustProxy ?? false, proxyHops: options.proxyHops });
  const credentialFor = async (companyId: number, vars: Record<string, unknown> = {}): Promise<Credential> => {
    const created = (await installation.call('api_keys', 'add', { vars: { company_id: companyId, ...vars } }, { companyId, user: 'spec' })) as Credential;
    return { user: created.user, key: created.key };
  };
  const credential = await credentialFor(1);
  const deliveries = options.events
    ? new DeliveryWorker(installation, installation.container.resolve(EventConsumers).list, { bell: installation.container.resolve(OutboxBell), ...options.events })
    : undefined;
  deliveries?.start();
  const mail = options.mail ? new MailWorker(installation, { bell: installation.container.resolve(OutboxBell), ...options.mail }) : undefined;
  mail?.start();
  const installationCredential = await credentialFor(1, { installation: true, notes: 'spec installation credential' });
  return {
    url: server.url,
    installation,
    database,
    credential,
    installationCredential,
    credentialFor,
    deliveries,
    mail,
    request: (verb, path, requestOptions = {}) => send(server.url, credential, verb, path, requestOptions),
    async close() {
      await deliveries?.stop();
      await mail?.stop();
      await server.close();
      await database.drop();
    },
  };
}

/** A request to any Tally server (a second process over the same database, say), as `TestServer.request` sends it. */
export async function send(base: string, credential: Credential, verb: string, path: string, options: RequestOptions): Promise<TestResponse> {
  const headers: Record<string, string> = { ...options.headers };
  const auth = options.auth ?? credential;
  if (auth && 'basic' in auth) {
    headers.authorization = `Basic ${Buffer.from(`${auth.basic.user}:${auth.basic.key}`).toString('base64')}`;
  } else if (auth) {
    headers['SERVICE-API-USER'] = auth.user;
    headers['SERVICE-API-KEY'] = auth.key;
  }
  let body: string | undefined;
  if (typeof options.body === 'string') {
    body = options.body;
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  } else if (options.body) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(base + path, { method: verb, headers, body });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text, json, headers: response.headers };
}
