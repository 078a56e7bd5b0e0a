import { int, mapOf, record, string, timestamp } from '../kernel/shape';

/** The fields of invoice_notices/* (see `@callable({ returns })` in invoice-notices.ts). */

export const NOTICE_NAMES: Record<string, string> = {
  notice1: 'First payment notice',
  notice2: 'Second payment notice',
  notice3: 'Third payment notice',
  notice_pending_autodebit: 'Auto debit pending notice',
};

export const INVOICE_NOTICE = record({
  id: int(),
  company_id: int(),
  client_id: int(),
  invoice_id: int(),
  notice: string({ enum: Object.keys(NOTICE_NAMES), description: 'Which notice: the setting that made it.' }),
  date_due: timestamp({ description: "The invoice's due date when the notice was made." }),
  date_added: timestamp({ description: 'When the billing run made it.' }),
  status: string({ enum: ['pending', 'sent'] }),
  date_sent: timestamp({ nullable: true }),
});

export const NOTICE_TYPES = mapOf(string(), { description: 'Notice → name.' });
