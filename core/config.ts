import path from 'node:path';

/**
 * The one place Tally reads its environment. Every variable is declared once in `SETTINGS` with its
 * kind, default and meaning; `loadConfig` reads and checks them all at start, so a bad value stops
 * the start with a message naming the variable and what it accepts, instead of surfacing later as
 * a strange failure. The README's configuration table is checked against `SETTINGS` by a spec.
 *
 * To add a variable: add a row to SETTINGS and a field to Config; nothing else may read process.env.
 */
export interface Config {
  readonly port: number;
  readonly host: string | undefined;
  readonly databaseUrl: string;
  readonly databasePool: number;
  readonly sqliteWaitMs: number;
  readonly databaseTimeoutMs: number;
  readonly sqliteBusyMs: number;
  readonly sqliteSynchronous: 'FULL' | 'NORMAL';
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly maxConnections: number;
  readonly logLevel: string;
  readonly trustProxy: boolean;
  readonly workers: number;
  readonly companyName: string;
  readonly apiUser: string | undefined;
  readonly apiKey: string | undefined;
  readonly extensionsDir: string | undefined;
  readonly extensionHeapMb: number;
  readonly extensionDeadlineMs: number;
  readonly extensionStatementMs: number;
  readonly extensionLoadMs: number;
  readonly gatewayTestHosts: string | undefined;
  readonly proxyHops: number;
  readonly lockoutAttempts: number;
  readonly lockoutMinutes: number;
  readonly apiRateLimit: number;
  readonly callbackRateLimit: number;
  readonly apiAllowedOrigins: string;
  readonly auditRetentionDays: number;
  readonly automationMinutes: number;
  readonly extensionTaskSeconds: number;
}

type Kind = { type: 'integer'; min: number; max: number } | { type: 'boolean' } | { type: 'text' } | { type: 'choice'; values: readonly string[] };

export interface SettingDefinition {
  readonly variable: string;
  readonly key: keyof Config;
  readonly kind: Kind;
  /** The default as the README shows it; `undefined` means "unset" (the meaning says what happens). */
  readonly shownDefault: string;
  readonly defaultValue: () => unknown;
  readonly meaning: string;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const SETTINGS: readonly SettingDefinition[] = [
  setting('PORT', 'port', { type: 'integer', min: 0, max: 65535 }, '8080', () => 8080, 'port to serve on'),
  setting('HOST', 'host', { type: 'text' }, '0.0.0.0', () => undefined, 'address to listen on'),
  setting('DATABASE_URL', 'databaseUrl', { type: 'text' }, '`data/tally.sqlite`', () => path.join(process.cwd(), 'data', 'tally.sqlite'), 'a SQLite file, or `postgres://user@host:5432/db`'),
  setting('DATABASE_POOL', 'databasePool', { type: 'integer', min: 1, max: 1000 }, '10', () => 10, 'PostgreSQL connections per pool: each process has one pool for writes and one for GET calls'),
  setting(
    'TALLY_SQLITE_WAIT_MS',
    'sqliteWaitMs',
    { type: 'integer', min: 1, max: 3_600_000 },
    '30000',
    () => 30_000,
    "how long a call waits for SQLite's write connection (or a GET call for a read connection) before it fails",
  ),
  setting(
    'DATABASE_TIMEOUT_MS',
    'databaseTimeoutMs',
    { type: 'integer', min: 100, max: 3_600_000 },
    '10000',
    () => 10_000,
    'PostgreSQL: the longest wait to connect and the longest statement; past it the call answers 503',
  ),
  setting(
    'TALLY_SQLITE_BUSY_MS',
    'sqliteBusyMs',
    { type: 'integer', min: 0, max: 3_600_000 },
    '5000',
    () => 5000,
    "how long a SQLite write waits for another process's lock on the file before it answers 503",
  ),
  setting(
    'TALLY_SQLITE_SYNCHRONOUS',
    'sqliteSynchronous',
    { type: 'choice', values: ['FULL', 'NORMAL'] },
    'FULL',
    () => 'FULL',
    'SQLite `synchronous`: FULL keeps every acknowledged write through a power loss; NORMAL is faster and may lose the last ones',
  ),
  setting('TALLY_HEADERS_TIMEOUT_MS', 'headersTimeoutMs', { type: 'integer', min: 1000, max: 3_600_000 }, '10000', () => 10_000, "time a client has to send a request's headers"),
  setting('TALLY_REQUEST_TIMEOUT_MS', 'requestTimeoutMs', { type: 'integer', min: 1000, max: 3_600_000 }, '60000', () => 60_000, 'time a client has to send a whole request'),
  setting('TALLY_MAX_CONNECTIONS', 'maxConnections', { type: 'integer', min: 1, max: 1_000_000 }, '10000', () => 10_000, 'open connections one host process accepts; more are closed at once'),
  setting('LOG_LEVEL', 'logLevel', { type: 'choice', values: LOG_LEVELS }, 'info', () => 'info', 'pino level; `silent` turns logs off'),
  setting('TRUST_PROXY', 'trustProxy', { type: 'boolean' }, 'false', () => false, 'trust `X-Forwarded-*` from a reverse proxy'),
  setting(
    'TALLY_PROXY_HOPS',
    'proxyHops',
    { type: 'integer', min: 1, max: 10 },
    '1',
    () => 1,
    'with TRUST_PROXY, how many trusted proxies append to `X-Forwarded-For`; the client is the entry that many from the right',
  ),
  setting('TALLY_WORKERS', 'workers', { type: 'integer', min: 1, max: 64 }, '1', () => 1, 'host processes sharing the port (same as `serve --workers N`)'),
  setting('TALLY_COMPANY_NAME', 'companyName', { type: 'text' }, 'Default company', () => 'Default company', 'name of the company created on first start'),
  setting('TALLY_USER', 'apiUser', { type: 'text' }, 'unset', () => undefined, 'API user of the command-line form (`tally api/...`) when `-u` is not given'),
  setting('TALLY_KEY', 'apiKey', { type: 'text' }, 'unset', () => undefined, 'API key of the command-line form when `-k` is not given'),
  setting('TALLY_EXTENSIONS_DIR', 'extensionsDir', { type: 'text' }, '`extensions/`', () => undefined, 'where extensions are discovered'),
  setting('TALLY_EXTENSION_HEAP_MB', 'extensionHeapMb', { type: 'integer', min: 16, max: 65536 }, '128', () => 128, 'memory limit of each extension sandbox'),
  setting('TALLY_EXTENSION_DEADLINE_MS', 'extensionDeadlineMs', { type: 'integer', min: 1, max: 3_600_000 }, '10000', () => 10_000, 'time limit of one extension call'),
  setting(
    'TALLY_EXTENSION_STATEMENT_MS',
    'extensionStatementMs',
    { type: 'integer', min: 1, max: 3_600_000 },
    '1000',
    () => 1000,
    "on SQLite, time limit of one of an extension's statements (it holds the server's one thread while it runs)",
  ),
  setting('TALLY_EXTENSION_LOAD_MS', 'extensionLoadMs', { type: 'integer', min: 1, max: 3_600_000 }, '10000', () => 10_000, 'time limit for an extension to load'),
  setting(
    'TALLY_GATEWAY_TEST_HOSTS',
    'gatewayTestHosts',
    { type: 'text' },
    'unset',
    () => undefined,
    "for testing only: `api.stripe.com=http://127.0.0.1:4010,...` sends extensions' HTTP for a declared host to that server instead (named in the start-up log when set)",
  ),
  setting(
    'TALLY_LOCKOUT_ATTEMPTS',
    'lockoutAttempts',
    { type: 'integer', min: 1, max: 100_000 },
    '10',
    () => 10,
    'failed API authentications (per API user, per address) or `users/auth` attempts (per username) that lock them out',
  ),
  setting('TALLY_LOCKOUT_MINUTES', 'lockoutMinutes', { type: 'integer', min: 1, max: 10_080 }, '15', () => 15, 'how long failures are counted, and how long a lock-out lasts'),
  setting('TALLY_API_RATE_LIMIT', 'apiRateLimit', { type: 'integer', min: 0, max: 100_000_000 }, '6000', () => 6000, 'calls per credential per minute over all processes (429 beyond); 0 turns it off'),
  setting(
    'TALLY_CALLBACK_RATE_LIMIT',
    'callbackRateLimit',
    { type: 'integer', min: 0, max: 100_000_000 },
    '6000',
    () => 6000,
    'gateway notifications per sender address per minute, in each process (429 beyond); 0 turns it off',
  ),
  setting('TALLY_API_ALLOWED_ORIGINS', 'apiAllowedOrigins', { type: 'text' }, 'none', () => '', 'comma-separated origins whose web pages may call the API from a browser'),
  setting('TALLY_AUDIT_RETENTION_DAYS', 'auditRetentionDays', { type: 'integer', min: 1, max: 36_500 }, '90', () => 90, 'how long audit log rows are kept'),
  setting(
    'TALLY_AUTOMATION_MINUTES',
    'automationMinutes',
    { type: 'integer', min: 0, max: 1440 },
    '5',
    () => 5,
    'how often `serve` runs the billing tasks that are due (0: never; run `tally automation run` from cron instead)',
  ),
  setting(
    'TALLY_EXTENSION_TASK_SECONDS',
    'extensionTaskSeconds',
    { type: 'integer', min: 0, max: 3600 },
    '30',
    () => 30,
    "how often `serve` looks for extensions' scheduled tasks that are due (0: never)",
  ),
];

function setting(variable: string, key: keyof Config, kind: Kind, shownDefault: string, defaultValue: () => unknown, meaning: string): SettingDefinition {
  return { variable, key, kind, shownDefault, defaultValue, meaning };
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    accepts: string,
    given: string,
  ) {
    super(`${variable} must be ${accepts}, not "${given}".`);
  }
}

/** Reads every variable of `SETTINGS` from `env`; throws a ConfigError for the first bad one. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const config: Record<string, unknown> = {};
  for (const definition of SETTINGS) {
    const text = env[definition.variable];
    config[definition.key] = text === undefined || text === '' ? definition.defaultValue() : parse(definition, text);
  }
  return config as unknown as Config;
}

/** Checks one value against its kind; used for CLI options that stand in for a variable too. */
export function parseSetting(variable: string, text: string): unknown {
  const definition = SETTINGS.find((s) => s.variable === variable);
  if (!definition) throw new Error(`Unknown setting ${variable}`);
  return parse(definition, text);
}

function parse(definition: SettingDefinition, text: string): unknown {
  const { kind, variable } = definition;
  switch (kind.type) {
    case 'integer': {
      const value = Number(text.trim());
      if (!/^\d+$/.test(text.trim()) || value < kind.min || value > kind.max) {
        throw new ConfigError(variable, `a whole number from ${kind.min} to ${kind.max}`, text);
      }
      return value;
    }
    case 'boolean':
      if (/^(true|1|yes)$/i.test(text.trim())) return true;
      if (/^(false|0|no)$/i.test(text.trim())) return false;
      throw new ConfigError(variable, '"true" or "false"', text);
    case 'choice':
      if (!kind.values.includes(text.trim())) throw new ConfigError(variable, `one of ${kind.values.join(', ')}`, text);
      return text.trim();
    case 'text':
      return text;
  }
}

let current: Config | undefined;

/**
 * The process's configuration, read on first use. Entry points call it once at start (so a bad
 * value stops them there); specs that need other values pass explicit options instead.
 */
export function config(): Config {
  current ??= loadConfig();
  return current;
}
