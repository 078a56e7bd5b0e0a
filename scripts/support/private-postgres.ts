import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort } from '../bench/processes';
import { findPostgresBinaries, PostgresBinaries } from './postgres-binaries';

/**
 * A PostgreSQL server of one's own, for fault specs and the soak: initdb into a temporary folder,
 * pg_ctl on a free loopback port. It can be restarted, stopped and started again, or have its
 * backends killed, without touching any other server. initdb refuses to run as root, so as root
 * the binaries run as the `postgres` user. The binaries are found by findPostgresBinaries (PATH,
 * then Debian's /usr/lib/postgresql/<version>/bin).
 */
export class PrivatePostgres {
  private constructor(
    private readonly dir: string,
    readonly port: number,
    private readonly runAs: string[],
    private readonly binaries: PostgresBinaries,
  ) {}

  /** Starts one, or answers why it cannot (no initdb/pg_ctl found, say): callers skip with that. */
  static async start(): Promise<PrivatePostgres | string> {
    const binaries = findPostgresBinaries();
    if (typeof binaries === 'string') return binaries;
    const root = process.getuid?.() === 0;
    if (root && spawnSync('id', ['-u', 'postgres']).status !== 0) return 'running as root without a postgres user for initdb';
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-pg-'));
    const runAs = root ? ['runuser', '-u', 'postgres', '--'] : [];
    if (root) spawnSync('chown', ['-R', 'postgres', dir]);
    const server = new PrivatePostgres(dir, await freePort(), runAs, binaries);
    const init = server.run(binaries.initdb, ['-D', server.data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    if (init) {
      fs.rmSync(dir, { recursive: true, force: true });
      return `initdb failed: ${init}`;
    }
    const started = server.pgCtl('start');
    if (started) {
      server.destroy();
      return `pg_ctl start failed: ${started}`;
    }
    return server;
  }

  /** The URL of `database` on this server. */
  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  async createDatabase(name: string): Promise<string> {
    await this.query(`CREATE DATABASE ${name}`);
    return this.url(name);
  }

  /**
   * A database whose tables live in `directory` (an empty folder, a small tmpfs say), through a
   * tablespace: its data can fill that disk while the server's own files and WAL stay elsewhere,
   * as when a data volume fills up in production.
   */
  async createDatabaseIn(name: string, directory: string): Promise<string> {
    fs.mkdirSync(directory, { recursive: true, mode: 0o700 });
    if (this.runAs.length) spawnSync('chown', ['postgres', directory]);
    await this.query(`CREATE TABLESPACE ${name}_space LOCATION '${directory.replace(/'/g, "''")}'`);
    await this.query(`CREATE DATABASE ${name} TABLESPACE ${name}_space`);
    return this.url(name);
  }

  /** `pg_ctl restart -m fast`: every connection is ended (57P01), the server is back once this resolves. */
  restart(): void {
    this.must(this.pgCtl('restart', ['-m', 'fast']));
  }

  stop(): void {
    this.must(this.pgCtl('stop', ['-m', 'fast']));
  }

  start(): void {
    this.must(this.pgCtl('start'));
  }

  /** pg_terminate_backend on every connection to `database`; answers how many were ended. */
  async terminateBackends(database: string): Promise<number> {
    const result = await this.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
    return result.rowCount ?? 0;
  }

  async query(text: string, values: unknown[] = []) {
    const client = new Client({ connectionString: this.url() });
    await client.connect();
    try {
      return await client.query(text, values);
    } finally {
      await client.end();
    }
  }

  /** SIGSTOP to the server and its backends: it still accepts connections and answers nothing. */
  freeze(): void {
    for (const pid of this.pids()) process.kill(pid, 'SIGSTOP');
  }

  thaw(): void {
    for (const pid of this.pids()) process.kill(pid, 'SIGCONT');
  }

  private pids(): number[] {
    const postmaster = Number(fs.readFileSync(path.join(this.data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = spawnSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter(Boolean)
      .map(Number);
    return [postmaster, ...children];
  }

  /** Stops the server at once and removes its folder. */
  destroy(): void {
    this.pgCtl('stop', ['-m', 'immediate']);
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private get data(): string {
    return path.join(this.dir, 'data');
  }

  private pgCtl(action: string, extra: string[] = []): string | null {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
    return this.run(this.binaries.pgCtl, [action, '-D', this.data, '-w', '-t', '30', '-l', path.join(this.dir, 'log'), '-o', options, ...extra]);
  }

  /** Runs a server binary; answers null, or its output when it failed. */
  private run(command: string, args: string[]): string | null {
    const [program, ...rest] = [...this.runAs, command, ...args];
    const result = spawnSync(program, rest, { encoding: 'utf8', timeout: 60_000 });
    return result.status === 0 ? null : `${result.stderr || result.stdout || result.error?.message}`.trim();
  }

  private must(failure: string | null): void {
    if (failure) throw new Error(failure);
  }
}
