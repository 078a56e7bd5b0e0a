import { Db } from '../db/schema';
import { isPostgres } from '../db/is-postgres';
import { OutboxBell } from '../events/outbox-bell';
import { RETRY_DELAYS_MS, retryDelay } from '../events/retry-schedule';
import { leaseOwner, WorkerLoop } from '../events/worker-loop';
import { formatUtc } from '../kernel/timestamps';
import { SettingsStore } from '../settings-store';
import { MailConfig, readMailConfig } from './mail-config';
import { MailDb, mailDb } from './mail-tables';
import { MailTransport, ServerAnswer } from './mail-transport';
import { pruneMailBodies } from './prune-mail';

export const NO_MAIL_SERVER = 'Waiting: no mail server is configured for this company (mail_settings/set).';

export interface MailWorkerOptions {
  /** How often the outbox is looked at when nothing woke the worker (ms). */
  pollMs?: number;
  /** Messages sent at once by this process. */
  batch?: number;
  /** The waits between failed attempts (ms); the events' schedule by default (about three days). */
  retryDelaysMs?: readonly number[];
  /** How long a message of a company without a mail server waits before it is looked at again (ms); setting the server wakes it at once. */
  unconfiguredWaitMs?: number;
  onError?(error: unknown): void;
  bell?: OutboxBell;
}

interface Installation {
  readonly db: Db;
  readonly settings: SettingsStore;
}

interface Claimed {
  id: number;
  company_id: number;
  invoice_id: number | null;
  invoice_notice_id: number | null;
  message_id: string;
  to_addresses: string;
  subject: string;
  html: string | null;
  text: string | null;
  attempts: number;
  from_name: string | null;
  from_address: string | null;
  cc_addresses: string | null;
  bcc_addresses: string | null;
}

/** Cc and Bcc are kept one address a line, null when there are none. */
function addressLines(value: string | null): string[] {
  return value ? value.split('\n') : [];
}

/**
 * Sends the mail outbox after commit. A message is claimed under a lease (on PostgreSQL with SKIP
 * LOCKED, so processes share the work; on SQLite one process does), sent with its company's own
 * server, and its outcome recorded: sent (with the server's answer, and the invoice's email
 * delivery or payment reminder marked sent), or a retry with backoff, or failed once retries run out. A process that
 * dies after sending and before recording leaves a lease that runs out: the message is sent again
 * with the same Message-ID, never dropped. A company without a mail server keeps its messages
 * waiting, with the reason in their log entry.
 */
export class MailWorker {
  private readonly db: MailDb;
  private readonly owner = leaseOwner();
  private readonly transport = new MailTransport();
  private readonly options: Required<Omit<MailWorkerOptions, 'onError' | 'bell'>> & Pick<MailWorkerOptions, 'onError' | 'bell'>;
  private readonly loop: WorkerLoop;
  private lastPrune = 0;

  constructor(
    private readonly installation: Installation,
    options: MailWorkerOptions = {},
  ) {
    this.db = mailDb(installation.db) as MailDb;
    this.options = { pollMs: 500, batch: 16, retryDelaysMs: RETRY_DELAYS_MS, unconfiguredWaitMs: 60_000, ...options };
    this.loop = new WorkerLoop(() => this.round(), this.options);
  }

  start(): void {
    this.loop.start();
  }

  /** Looks at the outbox now (the installation's OutboxBell calls it after each committed write). */
  wake(): void {
    this.loop.wake();
  }

  /** Lets the messages being sent finish and records them. */
  async stop(): Promise<void> {
    await this.loop.stop();
    this.transport.close();
  }

  /** One pass: claim due messages, send them, record what came of each. True when it found work. */
  async round(): Promise<boolean> {
    const claimed = await this.claim();
    if (claimed.length) {
      const systemKey = await this.installation.settings.system('system_key');
      const configs = new Map<number, MailConfig | null | string>();
      for (const companyId of new Set(claimed.map((m) => m.company_id))) {
        // A company whose stored password no longer decrypts (the system key changed) fails its own messages, never the round.
        const config = await readMailConfig(this.installation.settings, companyId, systemKey).catch(
          () => 'The stored SMTP password cannot be decrypted with the system key; set it again (mail_settings/set).',
        );
        configs.set(companyId, config);
      }
      await Promise.all(claimed.map((message) => this.deliver(message, configs.get(message.company_id) ?? null)));
    }
    if (Date.now() - this.lastPrune >= 3_600_000) {
      this.lastPrune = Date.now();
      await pruneMailBodies(this.db, Number(await this.installation.settings.system('mail_retention_days')));
    }
    return claimed.length > 0;
  }

  private async claim(): Promise<Claimed[]> {
    const now = Date.now();
    let due = this.db
      .selectFrom('mail_messages')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where('lease_until', '<', now)
      .orderBy('id')
      .limit(this.options.batch);
    if (isPostgres(this.db)) due = due.forUpdate().skipLocked();
    // Long enough for a connection and a send to time out (mail-transport.ts) with room to spare.
    const rows = await this.db
      .updateTable('mail_messages')
      .set({ lease_owner: this.owner, lease_until: now + 120_000 })
      .where('id', 'in', due)
      .returning([
        'id',
        'company_id',
        'invoice_id',
        'invoice_notice_id',
        'message_id',
        'to_addresses',
        'subject',
        'html',
        'text',
        'attempts',
        'from_name',
        'from_address',
        'cc_addresses',
        'bcc_addresses',
      ])
      .execute();
    return rows.map((r) => ({
      ...r,
      id: Number(r.id),
      company_id: Number(r.company_id),
      invoice_id: r.invoice_id === null ? null : Number(r.invoice_id),
      invoice_notice_id: r.invoice_notice_id === null ? null : Number(r.invoice_notice_id),
      attempts: Number(r.attempts),
    }));
  }

  private async deliver(message: Claimed, config: MailConfig | null | string): Promise<void> {
    const mine = (query: any) => query.where('id', '=', message.id).where('lease_owner', '=', this.owner).where('status', '=', 'pending');
    if (!config) {
      await mine(this.db.updateTable('mail_messages').set({ response: NO_MAIL_SERVER, lease_until: 0, lease_owner: null, next_attempt_at: Date.now() + this.options.unconfiguredWaitMs })).execute();
      return;
    }
    const attachments = await this.db.selectFrom('mail_attachments').select(['filename', 'content_type', 'content']).where('message_id', '=', message.id).orderBy('id').execute();
    const answer: ServerAnswer =
      typeof config === 'string'
        ? { accepted: false, answer: config, code: null }
        : await this.transport.send(message.company_id, config, {
            messageId: message.message_id,
            to: message.to_addresses.split('\n'),
            cc: addressLines(message.cc_addresses),
            bcc: addressLines(message.bcc_addresses),
            fromName: message.from_name,
            fromAddress: message.from_address,
            subject: message.subject,
            html: message.html,
            text: message.text,
            attachments: attachments.map((a) => ({ filename: a.filename, contentType: a.content_type, content: Buffer.from(a.content, 'base64') })),
          });
    const attempts = message.attempts + 1;
    const response = answer.answer.slice(0, 2000);
    const released = { attempts, response, lease_until: 0, lease_owner: null };
    if (answer.accepted) {
      const sent = formatUtc(new Date());
      await this.db.transaction().execute(async (tx) => {
        await mine(tx.updateTable('mail_messages').set({ ...released, status: 'sent', date_sent: sent })).execute();
        if (message.invoice_id !== null) {
          await tx.updateTable('invoice_delivery').set({ date_sent: sent }).where('invoice_id', '=', message.invoice_id).where('method', '=', 'email').where('date_sent', 'is', null).execute();
        }
        if (message.invoice_notice_id !== null) {
          await tx.updateTable('invoice_notices').set({ status: 'sent', date_sent: sent }).where('id', '=', message.invoice_notice_id).where('status', '=', 'pending').execute();
        }
      });
      return;
    }
    const wait = retryDelay(attempts, this.options.retryDelaysMs);
    const change = wait === null ? { ...released, status: 'failed' } : { ...released, next_attempt_at: Date.now() + wait };
    await mine(this.db.updateTable('mail_messages').set(change)).execute();
  }
}
