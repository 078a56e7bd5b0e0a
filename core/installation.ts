import { container as rootContainer, DependencyContainer, InjectionToken } from 'tsyringe';
import { config } from './config';
import { connect, Connection } from './db/connect';
import { migrateToLatest } from './db/migrate';
import { withRetries } from './db/retryable';
import { Db, Tx } from './db/schema';
import { Caller, CredentialVerifier } from './credentials';
import { bindArguments } from './kernel/bind-arguments';
import { CallContext } from './kernel/call-context';
import { CallableSpec } from './kernel/callable';
import { classEntry, ModelEntry, ModelRegistry } from './kernel/model-registry';
import { TallyError } from './kernel/tally-error';
import { newSystemKey } from './kernel/system-cipher';
import { formatUtc } from './kernel/timestamps';
import { coreModels } from './models';
import { seedCurrencies } from './models/currencies';
import { SettingsStore } from './settings-store';
import { SYSTEM_COMPANY } from './settings-catalogue';

export interface ResolvedCall {
  readonly entry: ModelEntry;
  readonly spec: CallableSpec;
  readonly context: (db: Tx) => CallContext;
}

export interface InstallationOptions {
  /** `postgres://...` or a SQLite file; defaults to DATABASE_URL, then `data/tally.sqlite`. */
  databaseUrl?: string;
  /** How long settings and credentials are cached per process (ms); changes show within this time. */
  cacheTtlMs?: number;
  /** How long a call waits for SQLite's single connection; defaults to TALLY_SQLITE_WAIT_MS. */
  sqliteWaitMs?: number;
}

/**
 * The installation: its database, its models and how a call is run. No HTTP here; the web host
 * and the CLI both call `call()`, so both answer the same way.
 */
export class Installation {
  readonly registry = new ModelRegistry();
  readonly settings: SettingsStore;
  readonly credentials: CredentialVerifier;
  private readonly container: DependencyContainer;
  private readonly closers: Array<() => Promise<void>> = [];

  private constructor(readonly connection: Connection, cacheTtlMs: number) {
    this.settings = new SettingsStore(connection.db, cacheTtlMs);
    this.credentials = new CredentialVerifier(connection.db, cacheTtlMs);
    this.container = rootContainer.createChildContainer();
    this.container.registerInstance(SettingsStore, this.settings);
    this.container.registerInstance(CredentialVerifier, this.credentials);
    for (const modelClass of coreModels) this.registry.add(classEntry(modelClass));
  }

  /** Opens the database, brings its schema up to date and, on a new database, sets it up. */
  static async open(options: InstallationOptions = {}): Promise<Installation> {
    const connection = connect(options.databaseUrl ?? config().databaseUrl, { sqliteWaitMs: options.sqliteWaitMs });
    try {
      await migrateToLatest(connection.db);
      const installation = new Installation(connection, options.cacheTtlMs ?? 1000);
      await installation.setUp();
      return installation;
    } catch (error) {
      await connection.db.destroy().catch(() => undefined);
      throw error;
    }
  }

  get db(): Db {
    return this.connection.db;
  }

  authenticate(user: string, key: string): Promise<Caller | null> {
    return this.credentials.verify(user, key);
  }

  async inMaintenance(): Promise<boolean> {
    return (await this.settings.system('maintenance_mode')) === 'true';
  }

  /**
   * Finds `<model>/<method>` for a caller: the model and method must exist (404) and be callable
   * (403), and an extension's model must be enabled for the caller's company (403).
   */
  async resolve(model: string, method: string, caller: Caller): Promise<ResolvedCall> {
    const resolution = this.registry.resolve(model, method);
    if (!resolution.found) throw new TallyError(resolution.reason === 'not-callable' ? 'forbidden' : 'not_found');
    const { entry, spec } = resolution;
    const [timezone, systemKey] = await Promise.all([
      this.settings.get(caller.companyId, 'timezone'),
      this.settings.system('system_key'),
    ]);
    const context = (db: Tx) => new CallContext(db, caller.companyId, timezone, systemKey, caller.user);
    if (entry.availableTo && !(await entry.availableTo(caller.companyId, this.scope(context(this.db))))) throw new TallyError('forbidden');
    return { entry, spec, context };
  }

  /**
   * Binds the parameters (400 when they do not fit) and runs the method in one transaction, rolled
   * back whole when it throws: a 400 for recorded errors, anything else the host answers as a 500.
   */
  async run(call: ResolvedCall, params: Record<string, unknown>): Promise<unknown> {
    const args = bindArguments(call.spec, params);
    // A serialization failure or deadlock means another call won; the whole call is run again.
    return withRetries(() =>
      transactionFor(this.db, call.spec).execute((trx) => call.entry.invoke(call.spec.method, args, this.scope(call.context(trx)))),
    );
  }

  async call(model: string, method: string, params: Record<string, unknown>, caller: Caller): Promise<unknown> {
    return this.run(await this.resolve(model, method, caller), params);
  }

  async close(): Promise<void> {
    for (const closer of this.closers.splice(0)) await closer();
    await this.db.destroy();
  }

  /** Makes a service (such as the extension runtime) injectable into this installation's models. */
  provide<T>(token: InjectionToken<T>, instance: T): void {
    this.container.registerInstance(token, instance);
  }

  /** Runs `closer` when the installation closes, before the database (extension workers, say). */
  onClose(closer: () => Promise<void>): void {
    this.closers.push(closer);
  }

  /** The container one call's models are resolved in: the call's context over the installation's services. */
  scope(context: CallContext): DependencyContainer {
    const scope = this.container.createChildContainer();
    scope.registerInstance(CallContext, context);
    return scope;
  }

  /** First start: the system key and a default company. Idempotent, and safe when processes race. */
  private async setUp(): Promise<void> {
    await this.db
      .insertInto('settings')
      .values({ company_id: SYSTEM_COMPANY, key: 'system_key', value: newSystemKey() })
      .onConflict((oc) => oc.doNothing())
      .execute();
    const company = await this.db.selectFrom('companies').select('id').limit(1).executeTakeFirst();
    if (!company) {
      const created = await this.db
        .insertInto('companies')
        .values({ name: config().companyName, hostname: null, date_added: formatUtc(new Date()) })
        .returning('id')
        .executeTakeFirstOrThrow();
      await seedCurrencies(this.db, created.id);
    }
  }
}

/**
 * Methods declared for GET only read: their transaction is read-only (PostgreSQL enforces it;
 * on SQLite it begins without taking the write lock, which costs most of a short call).
 */
function transactionFor(db: Db, spec: CallableSpec) {
  const transaction = db.transaction();
  return spec.verb === 'GET' ? transaction.setAccessMode('read only') : transaction;
}
