import { formatUtc } from '../kernel/timestamps';
import { MailTx } from './mail-tables';

/**
 * Empties the bodies and attachments of messages sent, failed or cancelled more than `days` ago (the
 * mail_retention_days setting): the mail log keeps their subject, recipients, status and the
 * server's answer; a pending message is never touched.
 */
export async function pruneMailBodies(db: MailTx, days: number): Promise<void> {
  const cutoff = formatUtc(new Date(Date.now() - days * 86_400_000));
  const old = db.selectFrom('mail_messages').select('id').where('status', 'in', ['sent', 'failed', 'cancelled']).where('date_added', '<', cutoff);
  await db.deleteFrom('mail_attachments').where('message_id', 'in', old).execute();
  await db.updateTable('mail_messages').set({ html: null, text: null }).where('status', 'in', ['sent', 'failed', 'cancelled']).where('date_added', '<', cutoff).where('text', 'is not', null).execute();
}
