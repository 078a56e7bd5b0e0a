import { container as rootContainer, DependencyContainer, InjectionToken } from 'tsyringe';
import { CallHooks } from './call-hooks';
import { CallPath } from './call-path';
import { CallOutcome, CallRequest } from './call-record';
import { config } from './config';
import { connect, ConnectOptions, Connection } from './db/connect';
import { migrateToLatest } from './db/migrate';
import { Db, Tx } from './db/schema';
import { Caller, CredentialVerifier } from './identity/credentials';
import { AfterCommitQueue, CallContext } from './kernel/call-context';
import { CallScope } from './kernel/call-scope';
import { classEntry, ModelEntry } from './kernel/model-entry';
import { allModels, findModel, registerModel, resolveModelMethod } from './kernel/model-container';
import { ModelCalls } from './kernel/model-calls';
import { newSystemKey } from './kernel/system-cipher';
import { formatUtc } from './kernel/timestamps';
import { coreModels, recurringModels } from './models';
import { seedCurrencies } from './billing/starting-currencies';
import { seedDefaultClientGroup } from './billing/default-group';
import { SettingsStore } from './settings-store';
import { SYSTEM_COMPANY } from './settings-catalogue';

export interface InstallationOptions extends ConnectOptions {
  /** `postgres://...` or a SQLite file; defaults to DATABASE_URL, then `data/tally.sqlite`. */
  databaseUrl?: string;
  /** How long settings and credentials are cached per process (ms); changes show within this time. */
  cacheTtlMs?: number;
  /** How long a call waits for SQLite's write connection (a GET call for a read connection); defaults to TALLY_SQLITE_WAIT_MS. */
  sqliteWaitMs?: number;
  /** The call path's hooks (host/assemble-installation.ts adds them); none when not given. */
  hooks?: CallHooks;
  /**
   * How a model is registered: a core model as it is, or wrapped (the composition root runs the
   * extension managers outside transactions this way when extensions are loaded).
   */
  registering?: (entry: ModelEntry, installation: Installation) => ModelEntry;
}

/** How a call is carried, beyond who makes it (see CallRequest). */
export type CallOptions = Partial<Pick<CallRequest, 'via' | 'verb' | 'address' | 'requestId' | 'within'>>;

/**
 * The installation: its database, its models (in its container) and its call path. No HTTP here;
 * the web host, the CLI, the admin area and extensions all call `call()` or `answer()`, which run
 * the one call path (`call-path.ts`), so all answer the same way. It is assembled, with its hooks,
 * in one place: host/assemble-installation.ts.
 */
export class Installation {
  readonly settings: SettingsStore;
  readonly credentials: CredentialVerifier;
  /** This installation's container: its services and, under their API names, its models. */
  readonly container: DependencyContainer;
  /** The one call path, built once with this installation's hooks. */
  readonly path: CallPath;
  private readonly closers: Array<() => Promise<void>> = [];

  private constructor(
    readonly connection: Connection,
    cacheTtlMs: number,
    options: InstallationOptions,
  ) {
    this.settings = new SettingsStore(connection.db, cacheTtlMs);
    this.credentials = new CredentialVerifier(connection.db, cacheTtlMs);
    this.container = rootContainer.createChildContainer();
    this.container.registerInstance(SettingsStore, this.settings);
    this.container.registerInstance(CredentialVerifier, this.credentials);
    this.path = new CallPath(this.container, connection, this.settings, options.hooks ?? new CallHooks());
    this.container.registerInstance(ModelCalls, new ModelCalls(this));
    const registering = options.registering ?? ((entry: ModelEntry) => entry);
    for (const modelClass of [...coreModels, ...recurringModels]) this.addModel(registering(classEntry(modelClass), this));
  }

  /** Opens the database, brings its schema up to date and, on a new database, sets it up. */
  static async open(options: InstallationOptions = {}): Promise<Installation> {
    const connection = connect(options.databaseUrl ?? config().databaseUrl, options);
    try {
      await migrateToLatest(connection.db);
      const installation = new Installation(connection, options.cacheTtlMs ?? 1000, options);
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

  /** Runs `<model>/<method>` for `caller` through the one call path: its result, or what stopped it thrown. */
  call(model: string, method: string, params: CallRequest['params'], caller: Caller, options: CallOptions = {}): Promise<unknown> {
    return this.path.run({ model, method, params, caller, via: options.via ?? 'internal', ...options });
  }

  /** Runs a call through the one call path for a transport: its status and body, never a throw. */
  answer(request: CallRequest): Promise<CallOutcome> {
    return this.path.answer(request);
  }

  /**
   * Work of its own that is not a call (the admin area's staff accounts) in one transaction, in
   * which it makes calls `within` it: their after-commit hooks run once it has committed.
   */
  async inTransaction<T>(work: (within: { db: Tx; afterCommit: AfterCommitQueue }) => Promise<T>): Promise<T> {
    const afterCommit: AfterCommitQueue = [];
    const done = await this.db.transaction().execute((db) => work({ db, afterCommit }));
    await this.path.afterOwnCommit(afterCommit);
    return done;
  }

  /** Registers a model (a core class or an extension's proxy) under its API name. */
  addModel(entry: ModelEntry): void {
    registerModel(this.container, entry);
  }

  model(name: string): ModelEntry | undefined {
    return findModel(this.container, name);
  }

  models(): ModelEntry[] {
    return allModels(this.container);
  }

  /** Whether `<model>/<method>` exists and is callable (billing and extension models are optional). */
  isCallable(model: string, method: string): boolean {
    return resolveModelMethod(this.container, model, method).found;
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

  /** What one call's models are resolved in: the call's context over the installation's services. */
  scope(context: CallContext): CallScope {
    return this.path.scope(context);
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
      await seedDefaultClientGroup(this.db, created.id);
    }
  }
}
