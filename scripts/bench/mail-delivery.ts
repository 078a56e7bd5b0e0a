import nodemailer from 'nodemailer';
import { Installation } from '../../core/installation';
import { MailWorker } from '../../core/delivery/mail-worker';
import { mailDb } from '../../core/delivery/mail-tables';
import { queueTemplateMessage } from '../../core/delivery/queue-template-message';
import { createScratchDatabase } from '../support/scratch-database';
import { Sink } from './smtp-sink';

const TAGS = { contact: { first_name: 'Ada' }, username: 'ada', login_url: 'https://billing.example.com/client/login' };
/** A file the size of a short invoice PDF, so each message carries an attachment as invoice deliveries will. */
const ATTACHMENT = { filename: 'invoice-1042.pdf', contentType: 'application/pdf', content: Buffer.alloc(40 * 1024, 7) };

/**
 * Mail delivery, on SQLite and PostgreSQL: BENCH_MAILS (default 2,000) messages already committed
 * to the mail outbox (a rendered template and a 40 KiB attachment each), sent by one MailWorker to
 * a local SMTP server (smtp-server, accepting everything), in messages per second and this
 * process's CPU per message; against nodemailer sending the same messages to the same server at
 * the same concurrency (the baseline: SMTP alone, no database, no outbox).
 */
export async function measureMailDelivery(postgresUrl: string | null): Promise<void> {
  const count = Number(process.env.BENCH_MAILS ?? 2_000);
  for (const target of [null, ...(postgresUrl ? [postgresUrl] : [])]) {
    const label = target ? 'PostgreSQL' : 'SQLite';
    const bare = await bareRate(count);
    const tally = await outboxRate(target, count);
    console.log(
      `mail, ${label}: ${count} messages (40 KiB attachment each) at ${tally.rate.toFixed(0)}/s, ${tally.cpuMs.toFixed(2)} ms CPU per message; nodemailer alone ${bare.rate.toFixed(0)}/s, ${bare.cpuMs.toFixed(2)} ms CPU; ratio ${(tally.rate / bare.rate).toFixed(2)}`,
    );
  }
}

interface Rate {
  readonly rate: number;
  readonly cpuMs: number;
}

async function outboxRate(postgresUrl: string | null, count: number): Promise<Rate> {
  const database = await createScratchDatabase(postgresUrl ?? undefined, 'tally_bench_mail');
  const installation = await Installation.open({ databaseUrl: database.url, cacheTtlMs: 1000 });
  const sink = await Sink.start();
  try {
    await installation.call('mail_settings', 'set', { vars: { host: '127.0.0.1', port: sink.port, tls: 'none', from_address: 'billing@example.com' } }, { companyId: 1, user: 'bench' });
    for (let start = 0; start < count; start += 500) {
      await installation.db.transaction().execute(async (tx) => {
        for (let i = start; i < Math.min(count, start + 500); i++)
          await queueTemplateMessage(tx, { companyId: 1, action: 'account_welcome', tags: TAGS, to: [`client${i}@example.com`], attachments: [ATTACHMENT] });
      });
    }
    const worker = new MailWorker(installation, { pollMs: 20 });
    const cpu = process.cpuUsage();
    const started = performance.now();
    worker.start();
    const db = mailDb(installation.db);
    for (;;) {
      const row = await db
        .selectFrom('mail_messages')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'sent')
        .executeTakeFirstOrThrow();
      if (Number(row.n) >= count) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    await worker.stop();
    if (sink.count !== count) throw new Error(`mail: WRONG: ${sink.count} received of ${count}`);
    // The SMTP server runs in this process too: its share is in the CPU figure, as it is in the baseline's.
    return { rate: count / seconds, cpuMs: (used.user + used.system) / 1000 / count };
  } finally {
    await sink.close();
    await installation.close();
    await database.drop();
  }
}

/** The same messages through nodemailer directly, 16 at a time (the worker's batch), over the same pool of 4 connections. */
async function bareRate(count: number): Promise<Rate> {
  const sink = await Sink.start();
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: sink.port, secure: false, ignoreTLS: true, pool: true, maxConnections: 4 });
  try {
    const cpu = process.cpuUsage();
    const started = performance.now();
    let next = 0;
    const lane = async () => {
      while (next < count) {
        const i = next++;
        await transport.sendMail({ from: 'billing@example.com', to: `client${i}@example.com`, subject: 'Welcome', text: 'Hello Ada', html: '<p>Hello Ada</p>', attachments: [ATTACHMENT] });
      }
    };
    await Promise.all(Array.from({ length: 16 }, lane));
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    return { rate: count / seconds, cpuMs: (used.user + used.system) / 1000 / count };
  } finally {
    transport.close();
    await sink.close();
  }
}
