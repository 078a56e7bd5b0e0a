import { containsPattern } from '../../db/contains-pattern';
import { sql } from 'kysely';
import { Tx } from '../../db/schema';
import { formatUtc } from '../../kernel/timestamps';
import { TallyError } from '../../kernel/tally-error';
import { readFilters } from '../../billing/ordering';
import { INVOICE_STATUSES, MESSAGES } from '../../billing/invoice-rules';
import { invoiceQuery } from './invoice-store';

/**
 * The reference's list filters besides the stored statuses (§4): open (active or proforma with
 * something due; the default), closed (paid), past_due, pending (not billed yet), to_autodebit and
 * pending_autodebit (an autodebit date passed / to come), to_print and printed (paper delivery not
 * printed / printed, paid or not), to_deliver (some delivery not sent), all.
 */
export const LIST_STATUSES = [...INVOICE_STATUSES, 'open', 'closed', 'past_due', 'pending', 'to_autodebit', 'pending_autodebit', 'to_print', 'printed', 'to_deliver', 'all'] as const;

export const INVOICE_ORDER: Record<string, string> = {
  date_due: 'date_due',
  date_billed: 'date_billed',
  date_closed: 'date_closed',
  id_code: 'number_value',
  id: 'id',
  total: 'total',
  status: 'status',
  currency: 'currency',
  client_id: 'client_id',
};

const FILTERS = ['currency', 'invoice_id'] as const;

type InvoiceQuery = ReturnType<typeof invoiceQuery>;

export function filteredInvoices(db: Tx, companyId: number, clientId: number | null, status: string | null, filters: unknown = {}): InvoiceQuery {
  if (status !== null && !(LIST_STATUSES as readonly string[]).includes(status)) throw TallyError.invalid({ status: { format: MESSAGES.status } });
  let query = invoiceQuery(db, companyId);
  if (clientId !== null) query = query.where('client_id', '=', clientId);
  const known = readFilters(filters, FILTERS);
  if (known.currency !== undefined) query = query.where('currency', '=', known.currency);
  if (known.invoice_id !== undefined) query = query.where('id', '=', Number(known.invoice_id) || -1);
  return byStatus(db, query, status ?? 'all');
}

function byStatus(db: Tx, query: InvoiceQuery, status: string): InvoiceQuery {
  const now = formatUtc(new Date());
  const open = () => query.where('status', 'in', ['active', 'proforma']).where('date_closed', 'is', null);
  const delivery = (method: string | null, sent: boolean) => {
    let sub = db
      .selectFrom('invoice_delivery')
      .select('invoice_id')
      .where('date_sent', sent ? 'is not' : 'is', null);
    if (method) sub = sub.where('method', '=', method);
    return sub;
  };
  switch (status) {
    case 'all':
      return query;
    case 'open':
      return open();
    case 'closed':
      return query.where('status', 'in', ['active', 'proforma']).where('date_closed', 'is not', null);
    case 'past_due':
      return open().where('date_due', '<', now);
    case 'pending':
      return open().where('date_billed', '>', now);
    case 'to_autodebit':
      return open().where('date_autodebit', 'is not', null).where('date_autodebit', '<=', now);
    case 'pending_autodebit':
      return open().where('date_autodebit', '>', now);
    case 'to_print':
      // Paid or not: a paper delivery waits until it is marked printed (invoices/delivered).
      return query.where('status', 'in', ['active', 'proforma']).where('id', 'in', delivery('paper', false));
    case 'printed':
      return query.where('id', 'in', delivery('paper', true));
    case 'to_deliver':
      return query.where('status', 'in', ['active', 'proforma']).where('id', 'in', delivery(null, false));
    default:
      return query.where('status', '=', status);
  }
}

/** Free-text search over the invoice number and its line descriptions. */
export function searchInvoices(db: Tx, companyId: number, text: string): InvoiceQuery {
  const like = containsPattern(text);
  const inLines = db
    .selectFrom('invoice_lines')
    .select('invoice_id')
    .where(sql`lower(description)`, 'like', like);
  return invoiceQuery(db, companyId).where((eb) => eb.or([eb(sql`lower(coalesce(number, ''))`, 'like', like), eb('id', 'in', inLines)]));
}
