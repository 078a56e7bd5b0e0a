import { expect } from 'chai';
import { sql } from 'kysely';
import { connect } from '../../../core/db/connect';
import { assembleInstallation } from '../../../host/assemble-installation';
import { TallyError } from '../../../core/kernel/tally-error';
import { verify } from '../../../scripts/soak/checks';
import { PrivatePostgres } from '../../../scripts/support/private-postgres';
import { HostProcess, startHostProcess } from '../../support/host-process';
import { Target, WriteStream } from '../../support/write-stream';

/** Every call must be answered within the database time-out plus this margin. */
const DATABASE_TIMEOUT_MS = 3000;
const ANSWER_WITHIN_MS = DATABASE_TIMEOUT_MS + 6000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * PostgreSQL restarted, stopped and its backends killed under a stream of invoice and payment
 * writes from two host processes, on a server of the spec's own (the shared one is never touched).
 * Calls the database cannot take answer 503 with Retry-After in time; no process dies; calls
 * succeed again once the server is back; every acknowledged write is stored and consistent.
 */
describe('PostgreSQL faults under writes from two host processes', function () {
  this.timeout(120_000);
  let postgres: PrivatePostgres;
  let url: string;
  let hosts: HostProcess[] = [];
  let stream: WriteStream;
  let headers: Record<string, string>;

  before(async function () {
    const started = await PrivatePostgres.start();
    if (typeof started === 'string') {
      console.log(`      (skipped: ${started})`);
      return this.skip();
    }
    postgres = started;
    url = await postgres.createDatabase('tally');
    const installation = await assembleInstallation({ databaseUrl: url });
    const credential = (await installation.call('api_keys', 'add', {}, { companyId: 1, user: 'spec' })) as { user: string; key: string };
    const clients: number[] = [];
    for (let i = 0; i < 3; i++) {
      const vars = { first_name: 'Fault', last_name: `Client${i}`, email: `fault${i}@example.com` };
      clients.push((await installation.call('clients', 'add', { vars }, { companyId: 1, user: 'spec' })) as number);
    }
    await installation.close();
    const env = { DATABASE_TIMEOUT_MS: String(DATABASE_TIMEOUT_MS), DATABASE_POOL: '4' };
    hosts = await Promise.all([startHostProcess(url, env), startHostProcess(url, env)]);
    headers = { 'SERVICE-API-USER': credential.user, 'SERVICE-API-KEY': credential.key };
    stream = new WriteStream(
      hosts.map((h): Target => ({ base: h.base, headers })),
      clients,
      ANSWER_WITHIN_MS,
    );
    stream.start(6);
    await sleep(1500);
  });

  after(async () => {
    await stream?.stop();
    await Promise.all(hosts.map((h) => h.stop()));
    postgres?.destroy();
  });

  /** Waits until writes are acknowledged again after a fault, at most `ms`. */
  async function writesResume(ms = 15_000): Promise<number> {
    const before = stream.count();
    const deadline = Date.now() + ms;
    while (stream.count() < before + 5 && Date.now() < deadline) await sleep(100);
    return stream.count() - before;
  }

  it('survives a restart (pg_ctl restart -m fast) and writes again afterwards', async () => {
    postgres.restart();
    expect(await writesResume()).to.be.at.least(5);
  });

  it('survives pg_terminate_backend on every connection, idle or inside a transaction', async () => {
    const terminated = await postgres.terminateBackends('tally');
    expect(terminated).to.be.greaterThan(0);
    expect(await writesResume()).to.be.at.least(5);
  });

  /** A read: a GET call's statements run alone on the read sessions (core/db/read-statements.ts). */
  const read = async () => {
    const res = await fetch(`${hosts[0].base}/api/clients/getList.json`, { headers, signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
    return { status: res.status, retryAfter: res.headers.get('retry-after') };
  };

  it('answers 503 with Retry-After while the server is down, in time, reads and writes alike, and both again once it is back', async () => {
    const before = stream.statuses.get('503') ?? 0;
    postgres.stop();
    await sleep(2500);
    const during = (stream.statuses.get('503') ?? 0) - before;
    const readDuring = await read();
    postgres.start();
    expect(during).to.be.greaterThan(0);
    expect(readDuring.status).to.equal(503);
    expect(readDuring.retryAfter).to.match(/^\d+$/);
    expect(await writesResume()).to.be.at.least(5);
    expect((await read()).status).to.equal(200);
  });

  it('answers 503 in time while the server stops answering altogether (SIGSTOP), and writes again once it answers', async () => {
    const before = stream.statuses.get('503') ?? 0;
    postgres.freeze();
    try {
      await sleep(DATABASE_TIMEOUT_MS + 3000);
    } finally {
      postgres.thaw();
    }
    expect((stream.statuses.get('503') ?? 0) - before).to.be.greaterThan(0);
    expect(await writesResume()).to.be.at.least(5);
  });

  it('fails a call whose connection is killed between two statements of its transaction with 503, and keeps nothing of it', async () => {
    const installation = await assembleInstallation({ databaseUrl: url, databaseTimeoutMs: DATABASE_TIMEOUT_MS });
    try {
      let failure: unknown;
      try {
        await installation.db.transaction().execute(async (trx) => {
          await trx.insertInto('companies').values({ name: 'half-written', hostname: null, date_added: '2026-11-01 00:00:00' }).execute();
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          await postgres.query('SELECT pg_terminate_backend($1)', [rows[0].pid]);
          // The server's FATAL reaches the client while it sits idle in the transaction: an 'error'
          // event with no query to take it, which unheard would end this very process.
          await sleep(300);
          await trx.selectFrom('companies').select('id').execute();
        });
      } catch (error) {
        failure = error;
      }
      expect(failure).to.be.instanceOf(TallyError);
      expect((failure as TallyError).code).to.equal('database_unavailable');
      expect(await installation.db.selectFrom('companies').select('id').where('name', '=', 'half-written').execute()).to.deep.equal([]);
    } finally {
      await installation.close();
    }
  });

  it('lost nothing: no process died, no call went unanswered or failed otherwise, every acknowledged write is stored and balances', async () => {
    await stream.stop();
    for (const host of hosts) {
      expect(host.child.exitCode, host.stderr()).to.equal(null);
      const health = await fetch(`${host.base}/health`).then((r) => r.json() as Promise<{ pid: number }>);
      expect(health.pid).to.equal(host.pid);
    }
    expect(stream.defects.slice(0, 10)).to.deep.equal([]);
    expect(stream.slowestMs).to.be.below(ANSWER_WITHIN_MS);
    expect(stream.acknowledged.invoices.length).to.be.greaterThan(10);
    expect(stream.acknowledged.payments.length).to.be.greaterThan(5);
    const { db } = connect(url);
    try {
      expect(await verify(db, stream.acknowledged)).to.deep.equal([]);
    } finally {
      await db.destroy();
    }
    console.log(
      `      (${stream.acknowledged.invoices.length} invoices and ${stream.acknowledged.payments.length} payments acknowledged; statuses ${JSON.stringify(Object.fromEntries(stream.statuses))}; slowest answer ${stream.slowestMs} ms)`,
    );
  });
});
