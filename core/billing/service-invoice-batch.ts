import { insertRows } from '../db/bulk-insert';
import { runPrepared } from '../db/prepared-statements';
import { MONEY_INTEGER_DIGITS } from '../db/money-columns';
import { CallContext } from '../kernel/call-context';
import { is } from '../kernel/input-rules';
import { Amount, Money, toStored, ZERO } from '../kernel/money';
import { TallyError } from '../kernel/tally-error';
import { formatUtc, parseTimestamp } from '../kernel/timestamps';
import { activeTaxes, taxesFor, taxExemptClients } from './applicable-taxes';
import { clientQuery } from './client-store';
import { ServiceRow } from './service-store';
import { draftServiceInvoice, dueDateOf, loadBooks, FromServicesOptions, Line, moveRenewDates, Period, recordPeriods, ROWS_PER_INSERT, ServiceInvoiceDraft } from './from-services';
import { LineInput, readLines, rememberingReader } from './lines';
import { numberingSettings, numberInvoices } from './numbering';
import { closedDate } from './settlement';
import { computeTotals, storedTotals, Totals } from './totals';
import { emitServiceInvoices } from './service-invoice-events';

export interface ServiceInvoiceRequest {
  readonly clientId: number;
  readonly services: readonly ServiceRow[];
  readonly options: FromServicesOptions;
}

/** What invoices/add would store for one request, before it has an id and a number. */
interface Prepared {
  readonly index: number;
  readonly clientId: number;
  readonly currency: string;
  readonly lines: LineInput[];
  readonly totals: Totals;
  readonly billed: string;
  readonly due: string;
  readonly periods: Period[];
  readonly renew: boolean;
}

/**
 * invoiceServices for many clients at once, for the billing run: each invoice is the one
 * invoices/add makes from the lines invoiceServices gives it — the same checks (the client is the
 * company's, the currency is one of its currencies, every line is complete, the total is not below
 * zero), the client's taxes, the currency's precision, a number from the company's sequence — but a
 * batch of them is written with a few multi-row statements instead of a dozen statements each, and
 * numbered with one block of numbers taken last, just before the caller's commit (the company's
 * counter is then held only from there to the commit). A period already invoiced refuses the whole
 * batch (`service_ids.invoiced`), as it refuses one invoice.
 *
 * A request any of those checks would refuse is not written: its place in the answer is null, and
 * the caller sends it through invoiceServices, which refuses it exactly as the API does.
 *
 * `numbered` is the numbering's outcome (see numberInvoices): on PostgreSQL still in flight when
 * this answers. The caller is to commit without another statement first, then wait for it and
 * throw its error if it has one (the transaction was then rolled back).
 */
export async function invoiceServiceBatch(ctx: CallContext, requests: readonly ServiceInvoiceRequest[]): Promise<{ ids: Array<number | null>; numbered: Promise<void> }> {
  const db = ctx.db;
  const books = await loadBooks(
    db,
    requests.flatMap((r) => r.services),
  );
  const drafts: Array<ServiceInvoiceDraft | null> = [];
  for (const r of requests) {
    if (drafts.length % YIELD_EVERY === YIELD_EVERY - 1) await letIoIn();
    try {
      drafts.push(draftServiceInvoice(ctx.timezone, r.clientId, r.services, r.options, books));
    } catch (error) {
      if (!(error instanceof TallyError)) throw error;
      drafts.push(null);
    }
  }
  const wanted = requests.filter((_, i) => drafts[i]);
  if (!wanted.length) return { ids: requests.map(() => null), numbered: Promise.resolve() };
  const taxable = drafts.some((d) => d?.lines.some((l) => l.tax));
  const clientIds = [...new Set(wanted.map((r) => r.clientId))];
  const [clients, currencies, taxRows, exempt] = await Promise.all([
    runPrepared(db, clientQuery(db, ctx.companyId, clientIds)),
    // All of the company's (a handful): the statement is the same for every batch.
    runPrepared(db, db.selectFrom('currencies').select(['code', 'precision']).where('company_id', '=', ctx.companyId)),
    taxable ? activeTaxes(db, ctx.companyId) : Promise.resolve([]),
    taxable ? taxExemptClients(db, ctx.companyId, clientIds, ctx.systemKey) : Promise.resolve(new Set<number>()),
  ]);
  const clientById = new Map(clients.map((c) => [c.id, c]));
  const precisionOf = new Map(currencies.map((c) => [c.code, Number(c.precision)]));
  const time = memo((text: string) => {
    const parsed = parseTimestamp(text, ctx.timezone);
    return parsed && formatUtc(parsed);
  });

  // The batch's lines repeat a few prices and quantities: each read once.
  const reader = rememberingReader();
  const prepared: Prepared[] = [];
  for (const [index, request] of requests.entries()) {
    if (index % YIELD_EVERY === YIELD_EVERY - 1) await letIoIn();
    const draft = drafts[index];
    const client = clientById.get(request.clientId);
    const precision = precisionOf.get(request.options.currency);
    if (!draft || !client || precision === undefined || !/^[A-Z]{3}$/.test(request.options.currency) || !draft.lines.length) continue;
    const billed = time(`${request.options.now} UTC`);
    const due = time(`${dueDateOf(request.options)} UTC`);
    if (!billed || !due || due < billed) continue;
    const lines = readLines(draft.lines, reader);
    if (!lines.every((line, i) => complete(draft.lines[i], line))) continue;
    const totals = computeTotals(lines, lines.some((l) => l.taxable) && !exempt.has(client.id) ? taxesFor(taxRows, client) : [], precision);
    if (totals.total.isNegative() || !fits(totals)) continue;
    prepared.push({ index, clientId: request.clientId, currency: request.options.currency, lines, totals, billed, due, periods: draft.periods, renew: request.options.renew });
  }
  const answer: Array<number | null> = requests.map(() => null);
  if (!prepared.length) return { ids: answer, numbered: Promise.resolve() };

  const ids = await insertInvoices(ctx, prepared);
  await insertLinesAndTaxes(ctx, prepared, ids);
  await recordPeriods(
    db,
    prepared.map((p, i) => ({ invoiceId: ids[i], periods: p.periods })),
  );
  await moveRenewDates(
    db,
    prepared.filter((p) => p.renew).flatMap((p) => p.periods),
  );
  await emitServiceInvoices(
    db,
    ctx.companyId,
    prepared.map((p, i) => ({ invoiceId: ids[i], clientId: p.clientId, currency: p.currency, total: p.totals.total, due: p.due, periods: p.periods })),
  );
  // Numbered last, as invoices/add numbers: other writers of the company's invoices queue on the
  // counter from here to the caller's commit.
  const { outcome } = await numberInOrder(ctx, ids);
  prepared.forEach((p, i) => (answer[p.index] = ids[i]));
  return { ids: answer, numbered: outcome };
}

/**
 * Requests worked out between two turns of the event loop. Other lanes' batches hold the company's
 * invoice counter from their numbering to their commit, and their commit waits for such a turn:
 * long stretches of computing here kept the counter held (commits took 25-30 ms, against 2-4 ms).
 */
const YIELD_EVERY = 10;

const letIoIn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** What invoices/add's line rules ask of a line as given and as read (its description, quantity and amount), and no NUL (refused on binding). */
function complete(given: Line, read: LineInput): boolean {
  const [qty, amount] = [read.qty as Amount | null, read.amount as Amount | null];
  return is.present(given.description) && !given.description.includes('\u0000') && qty !== null && qty.greaterThan(0) && amount !== null;
}

/**
 * The invoices' rows, inserted in order; answers their ids in that order. Through insertRows
 * (arrays, one prepared statement on PostgreSQL): its values are known to fit their columns (the
 * currency was checked, the totals by fits below).
 */
async function insertInvoices(ctx: CallContext, prepared: readonly Prepared[]): Promise<number[]> {
  const now = formatUtc(new Date());
  const ids: number[] = [];
  for (let at = 0; at < prepared.length; at += ROWS_PER_INSERT) {
    const slice = prepared.slice(at, at + ROWS_PER_INSERT);
    const rows = slice.map((p) => ({
      company_id: ctx.companyId,
      client_id: p.clientId,
      status: 'active',
      currency: p.currency,
      ...storedTotals(p.totals),
      paid: '0.0000',
      date_billed: p.billed,
      date_due: p.due,
      date_closed: closedDate('active', p.totals.total, ZERO, null, now),
      date_added: now,
    }));
    const inserted = (await insertRows(ctx.db, 'invoices', INVOICE_COLUMNS, rows, ['id', 'client_id'])) as Array<{ id: number; client_id: number }>;
    // One statement takes its ids from the sequence (PostgreSQL) or after the largest rowid
    // (SQLite) row by row, in the order of its rows: in id order, the rows are the ones given.
    inserted.sort((a, b) => a.id - b.id);
    if (inserted.length !== rows.length || inserted.some((row, i) => row.client_id !== rows[i].client_id)) {
      throw new Error('The invoices inserted do not match the rows given.');
    }
    ids.push(...inserted.map((row) => row.id));
  }
  return ids;
}

/** Unnumbered (numberInOrder numbers them), no notes, no auto debit date: as invoices/add leaves them. */
const INVOICE_COLUMNS = {
  company_id: 'integer',
  client_id: 'integer',
  status: 'text',
  currency: 'text',
  subtotal: 'numeric',
  tax: 'numeric',
  total: 'numeric',
  paid: 'numeric',
  date_billed: 'text',
  date_due: 'text',
  date_closed: 'text',
  date_added: 'text',
};

/** Whether an invoice's totals fit their columns (invoices/add refuses one that does not, with a 400). */
function fits(totals: Totals): boolean {
  return [totals.subtotal, totals.tax, totals.total].every((amount) => amount.abs().lt(MONEY_LIMIT));
}

const MONEY_LIMIT = new Money(10).pow(MONEY_INTEGER_DIGITS);

/** Every invoice's lines and applied taxes, as writeLinesAndTaxes writes a new invoice's. */
async function insertLinesAndTaxes(ctx: CallContext, prepared: readonly Prepared[], ids: readonly number[]): Promise<void> {
  // Lines share their quantities and amounts (rememberingReader): each written out once.
  const texts = new Map<Amount, string>();
  const text = (amount: Amount) => texts.get(amount) ?? texts.set(amount, toStored(amount)).get(amount)!;
  const lines = prepared.flatMap((p, i) =>
    p.lines.map((line, order) => ({
      line_order: order,
      description: line.description,
      qty: text(line.qty),
      amount: text(line.amount),
      taxable: line.taxable ? 1 : 0,
      service_id: line.serviceId ?? null,
      invoice_id: ids[i],
    })),
  );
  const taxes = prepared.flatMap((p, i) =>
    p.totals.taxes.map((t) => ({ invoice_id: ids[i], tax_id: t.id, level: t.level, name: t.name, rate: toStored(t.rate), type: t.type, amount: toStored(t.amount) })),
  );
  await insertRows(ctx.db, 'invoice_lines', LINE_COLUMNS, lines);
  await insertRows(ctx.db, 'invoice_taxes', TAX_COLUMNS, taxes);
}

const LINE_COLUMNS = { line_order: 'integer', description: 'text', qty: 'numeric', amount: 'numeric', taxable: 'integer', service_id: 'integer', invoice_id: 'integer' };
const TAX_COLUMNS = { invoice_id: 'integer', tax_id: 'integer', level: 'integer', name: 'text', rate: 'numeric', type: 'text', amount: 'numeric' };

/** One block of the company's invoice numbers, given to the invoices in id order. */
async function numberInOrder(ctx: CallContext, ids: readonly number[]): Promise<{ outcome: Promise<void> }> {
  const { format, start } = await numberingSettings(ctx.db, ctx.companyId);
  return numberInvoices(ctx.db, ctx.companyId, Number(start) || 1, format, ids);
}

/** A function of one text argument that computes each answer once. */
function memo<T>(compute: (text: string) => T): (text: string) => T {
  const answers = new Map<string, T>();
  return (text) => {
    if (!answers.has(text)) answers.set(text, compute(text));
    return answers.get(text)!;
  };
}
