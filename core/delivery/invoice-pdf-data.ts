import { sql } from 'kysely';
import { Tx } from '../db/schema';
import { SYSTEM_COMPANY } from '../settings-catalogue';
import { findCurrency } from '../billing/find-currency';
import { ownSettings } from '../billing/owner-settings';
import { computeTotals, TaxRule } from '../billing/totals';
import { Amount, stored } from '../kernel/money';
import { CurrencyLook } from '../billing/currency-format';

/** Everything a PDF invoice prints, read in one place (scoped to the company: another's invoice is never read). */
export interface InvoicePdfData {
  readonly invoice: {
    readonly id: number;
    readonly idCode: string;
    readonly status: string;
    readonly dateBilled: string;
    readonly dateDue: string;
    readonly dateAdded: string;
    readonly notePublic: string | null;
    readonly subtotal: Amount;
    readonly total: Amount;
    readonly paid: Amount;
  };
  readonly company: { readonly name: string; readonly address: string; readonly taxIds: string; readonly timezone: string };
  readonly client: { readonly idCode: string; readonly addressLines: readonly string[]; readonly taxId: string };
  readonly currency: CurrencyLook;
  readonly lines: readonly { readonly description: string; readonly qty: Amount; readonly amount: Amount; readonly total: Amount; readonly taxable: boolean }[];
  /** The taxes the invoice was billed with, each with the amount stored when it was totalled. */
  readonly taxes: readonly (TaxRule & { readonly amount: Amount })[];
  readonly payments: readonly { readonly date: string; readonly method: string; readonly reference: string | null; readonly amount: Amount }[];
  /** The logo (base64) and the hash of the company's font (its content is read only when this process has not parsed it). */
  readonly files: { readonly logo: string | null; readonly fontSha256: string | null };
}

/** The invoice of the company with its lines, taxes, payments, client and company; null when the company has no such invoice. */
export async function readInvoicePdfData(db: Tx, companyId: number, invoiceId: number): Promise<InvoicePdfData | null> {
  const invoice = await db.selectFrom('invoices').selectAll().where('company_id', '=', companyId).where('id', '=', invoiceId).executeTakeFirst();
  if (!invoice) return null;
  const [company, settings, lines, taxes, payments, contact, client, files, currency] = await Promise.all([
    db.selectFrom('companies').select('name').where('id', '=', companyId).executeTakeFirstOrThrow(),
    db
      .selectFrom('settings')
      .select(['company_id', 'key', 'value'])
      .where('company_id', 'in', [companyId, SYSTEM_COMPANY])
      .where('key', 'in', ['company_address', 'company_tax_ids', 'timezone', 'system_key'])
      .execute(),
    db.selectFrom('invoice_lines').select(['description', 'qty', 'amount', 'taxable']).where('invoice_id', '=', invoiceId).orderBy('line_order').orderBy('id').execute(),
    db.selectFrom('invoice_taxes').select(['tax_id', 'level', 'name', 'rate', 'type', 'amount']).where('invoice_id', '=', invoiceId).orderBy('level').execute(),
    db
      .selectFrom('transaction_applied')
      .innerJoin('transactions', 'transactions.id', 'transaction_applied.transaction_id')
      .select(['transaction_applied.amount', 'transaction_applied.date_added', 'transactions.type', 'transactions.gateway', 'transactions.reference'])
      .where('transaction_applied.invoice_id', '=', invoiceId)
      .where('transactions.company_id', '=', companyId)
      .orderBy('transaction_applied.date_added')
      .orderBy('transactions.id')
      .execute(),
    // The billing contact's address when the client has one, else the primary contact's.
    db
      .selectFrom('contacts')
      .select(['first_name', 'last_name', 'company', 'address1', 'address2', 'city', 'state', 'zip', 'country', 'contact_type'])
      .where('client_id', '=', invoice.client_id)
      .where('contact_type', 'in', ['billing', 'primary'])
      .orderBy('contact_type')
      .orderBy('id')
      .executeTakeFirst(),
    db.selectFrom('clients').select(['id', 'id_format', 'id_value']).where('id', '=', invoice.client_id).where('company_id', '=', companyId).executeTakeFirst(),
    db
      .selectFrom('invoice_pdf_files')
      .select(['kind', 'sha256', sql<string | null>`case when kind = 'logo' then content end`.as('logo')])
      .where('company_id', '=', companyId)
      .execute(),
    findCurrency(db, companyId, invoice.currency),
  ]);
  const setting = (key: string, scope = companyId) => settings.find((s) => s.key === key && s.company_id === scope)?.value ?? '';
  const clientSettings = client ? await ownSettings(db, 'client', client.id, setting('system_key', SYSTEM_COMPANY)) : new Map();
  // The line totals from the billing rules' own totalling, so a line shows what the invoice summed.
  const lineAmounts = lines.map((l) => ({ qty: stored(l.qty), amount: stored(l.amount), taxable: Boolean(l.taxable) }));
  const { lineTotals } = computeTotals(lineAmounts, [], currency?.precision ?? 2);
  return {
    invoice: {
      id: invoice.id,
      idCode: invoice.number ?? `DRAFT-${invoice.id}`,
      status: invoice.status,
      dateBilled: invoice.date_billed,
      dateDue: invoice.date_due,
      dateAdded: invoice.date_added,
      notePublic: invoice.note_public,
      subtotal: stored(invoice.subtotal),
      total: stored(invoice.total),
      paid: stored(invoice.paid),
    },
    company: { name: company.name, address: setting('company_address'), taxIds: setting('company_tax_ids'), timezone: setting('timezone') || 'UTC' },
    client: {
      idCode: client ? clientCode(client.id_format, client.id_value, client.id) : String(invoice.client_id),
      addressLines: contact ? addressLines(contact) : [],
      taxId: String(clientSettings.get('tax_id')?.value ?? ''),
    },
    currency: currency ?? { code: invoice.currency, precision: 2, format: '#,###.##', prefix: '', suffix: '' },
    lines: lineAmounts.map((l, i) => ({ ...l, description: lines[i].description, total: lineTotals[i] })),
    taxes: taxes.map((t) => ({ id: t.tax_id, level: t.level, name: t.name, rate: stored(t.rate), type: t.type === 'inclusive' ? 'inclusive' : 'exclusive', amount: stored(t.amount) })),
    payments: payments.map((p) => ({ date: p.date_added, method: p.gateway ?? p.type, reference: p.reference, amount: stored(p.amount) })),
    files: { logo: files.find((f) => f.kind === 'logo')?.logo ?? null, fontSha256: files.find((f) => f.kind === 'font')?.sha256 ?? null },
  };
}

/** The client's display number, as the clients model writes it: id_format with {num} replaced. */
function clientCode(format: string, value: number | string | null, id: number): string {
  return value === null ? String(id) : format.replace('{num}', String(value));
}

function addressLines(c: {
  first_name: string;
  last_name: string;
  company: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  country: string | null;
}): string[] {
  const place = [c.city, c.state, c.zip].filter((part) => part).join(', ');
  return [`${c.first_name} ${c.last_name}`.trim(), c.company, c.address1, c.address2, place, c.country].filter((line): line is string => !!line && line.trim() !== '');
}
