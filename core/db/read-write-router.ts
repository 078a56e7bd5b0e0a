import { CompiledQuery, DatabaseConnection, Driver, QueryCompiler, QueryResult, TransactionSettings } from 'kysely';

/** Where read-only transactions run, beside the connections that write. */
export interface ReadRoute extends Driver {
  /**
   * True when a read-only transaction with these settings needs no BEGIN/COMMIT here: each of its
   * statements alone reads what it would read inside it (see postgres-pool.ts).
   */
  autocommits?(settings: TransactionSettings): boolean;
  /**
   * Runs a statement made outside any transaction when it only reads; undefined leaves it to the
   * connections that write (see sqlite-readers.ts).
   */
  loneRead?(query: CompiledQuery): Promise<QueryResult<any>> | undefined;
  /**
   * Runs one statement of a call declared for GET on its own, on a read connection, refusing a
   * write as a read-only transaction would (see read-statements.ts).
   */
  readAlone?<R>(query: CompiledQuery): Promise<QueryResult<R>>;
}

interface Bound {
  readonly driver: Driver;
  readonly connection: DatabaseConnection;
  /** Statements run one by one, without BEGIN and COMMIT. */
  readonly autocommit: boolean;
}

/**
 * What Kysely holds for a query or a transaction. Which database connection it stands for is
 * decided at the transaction's start, when its access mode is known: a read-only transaction is
 * bound to a read connection, any other to a connection that writes. A statement outside a
 * transaction is bound for just that statement.
 */
class RoutedConnection implements DatabaseConnection {
  bound?: Bound;

  constructor(private readonly router: ReadWriteRouter) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.bound ? this.bound.connection.executeQuery<R>(query) : this.router.alone<R>(query);
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.bound ? this.bound.connection.streamQuery<R>(query, chunkSize) : this.router.streamAlone<R>(query, chunkSize);
  }
}

/**
 * A driver over two sets of connections: `writes` for transactions that may write and for
 * statements outside transactions, `reads` for read-only transactions (calls to methods declared
 * for GET). Reads then never wait behind a write transaction for a connection (SQLite), and may
 * skip the BEGIN/COMMIT round trips (PostgreSQL). Without `reads` everything runs on `writes`.
 */
export class ReadWriteRouter implements Driver {
  private readonly spare: RoutedConnection[] = [];

  constructor(
    private readonly writes: Driver,
    private readonly reads?: ReadRoute,
  ) {}

  async init(): Promise<void> {
    await this.writes.init();
    await this.reads?.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return this.spare.pop() ?? new RoutedConnection(this);
  }

  async beginTransaction(routed: RoutedConnection, settings: TransactionSettings): Promise<void> {
    const driver = settings.accessMode === 'read only' && this.reads ? this.reads : this.writes;
    const connection = await driver.acquireConnection();
    const autocommit = driver === this.reads && this.reads.autocommits?.(settings) === true;
    // Bound before BEGIN: should BEGIN fail, Kysely's release of `routed` gives the connection back.
    routed.bound = { driver, connection, autocommit };
    if (!autocommit) await driver.beginTransaction(connection, settings);
  }

  async commitTransaction(routed: RoutedConnection): Promise<void> {
    const { driver, connection, autocommit } = routed.bound!;
    if (!autocommit) await driver.commitTransaction(connection);
  }

  async rollbackTransaction(routed: RoutedConnection): Promise<void> {
    const { driver, connection, autocommit } = routed.bound!;
    if (!autocommit) await driver.rollbackTransaction(connection);
  }

  savepoint(routed: RoutedConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.transactional(routed).savepoint!(routed.bound!.connection, name, compile);
  }

  rollbackToSavepoint(routed: RoutedConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.transactional(routed).rollbackToSavepoint!(routed.bound!.connection, name, compile);
  }

  releaseSavepoint(routed: RoutedConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    return this.transactional(routed).releaseSavepoint!(routed.bound!.connection, name, compile);
  }

  async releaseConnection(routed: RoutedConnection): Promise<void> {
    await this.unbind(routed);
    this.spare.push(routed);
  }

  async destroy(): Promise<void> {
    await this.reads?.destroy();
    await this.writes.destroy();
  }

  /** A statement outside any transaction: on a read connection when it only reads and `reads` takes it, else on its own turn at `writes`. */
  alone<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.reads?.loneRead?.(query) ?? this.onWrites((connection) => connection.executeQuery<R>(query));
  }

  async *streamAlone<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    const connection = await this.writes.acquireConnection();
    try {
      yield* connection.streamQuery<R>(query, chunkSize);
    } finally {
      await this.writes.releaseConnection(connection);
    }
  }

  private async onWrites<T>(work: (connection: DatabaseConnection) => Promise<T>): Promise<T> {
    const connection = await this.writes.acquireConnection();
    try {
      return await work(connection);
    } finally {
      await this.writes.releaseConnection(connection);
    }
  }

  private async unbind(routed: RoutedConnection): Promise<void> {
    const bound = routed.bound;
    routed.bound = undefined;
    if (bound) await bound.driver.releaseConnection(bound.connection);
  }

  /** The driver of a real transaction: savepoints need one. */
  private transactional(routed: RoutedConnection): Driver {
    if (routed.bound?.autocommit !== false) throw new Error('A read-only transaction that runs its statements one by one has no savepoints.');
    return routed.bound.driver;
  }
}
