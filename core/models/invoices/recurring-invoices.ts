import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { assertValid } from '../../kernel/input-rules';
import { facet } from '../../kernel/model';
import { int, object } from '../../kernel/parameter';
import { TallyError } from '../../kernel/tally-error';
import { stored, toStored } from '../../kernel/money';
import { formatUtc } from '../../kernel/timestamps';
import { int as count, listOf, nothing, orFalse } from '../../kernel/shape';
import { deliveryList, DELIVERY_METHODS, InvoiceRules } from '../../billing/invoice-rules';
import { RECURRING_MESSAGES, recurringRuleSet } from '../../billing/recurring-invoice-rules';
import { findClientLocation, requireClientId } from '../../billing/client-store';
import { readLines } from '../../billing/lines';
import { ordered, readFilters, readOrder } from '../../billing/ordering';
import { findService } from '../../billing/service-store';
import { forUpdate } from '../../billing/for-update';
import { optionalText, pageOffset, wholeNumber } from '../../billing/values';
import { PAGE_SIZE } from '../../kernel/paging';
import { mergeLineEdits } from './line-edits';
import { deleteRecurringRows } from '../../billing/recurring-invoice-removal';
import { totalFor } from './totalling';
import { addRecurringMethod, presentRecurring, readRecurringDelivery, readRecurringLines, recurringQuery, storedRecurringLines, writeRecurringLines } from './recurring-store';
import { readLineItems } from './invoice-store';
import { RECURRING_ADD, RECURRING_DELIVERY, RECURRING_DELIVERY_ADD, RECURRING_EDIT, RECURRING_INFO, RECURRING_INVOICE, RECURRING_LINE_ITEM, RECURRING_SUMMARIES } from '../recurring-invoices.fields';

/** Fields getRecurringList may order by; term orders by period, then term, as the reference's does. */
const RECURRING_ORDER: Record<string, string> = {
  id: 'invoices_recur.id',
  client_id: 'invoices_recur.client_id',
  client_id_code: 'clients.id_value',
  term: 'invoices_recur.term',
  period: 'invoices_recur.period',
  duration: 'invoices_recur.duration',
  currency: 'invoices_recur.currency',
  date_renews: 'invoices_recur.date_renews',
  date_last_renewed: 'invoices_recur.date_last_renewed',
};

const invalidRecurring = () => TallyError.invalid({ invoice_recur_id: { exists: RECURRING_MESSAGES.recurId } });

/**
 * The reference's recurring invoices: a client's lines billed every `term` `period`s, from
 * `date_renews` on, `duration` times or indefinitely. The billing run's Create Invoice task makes
 * each invoice through invoices/add (core/automation/tasks/create-recurring-invoices.ts); these are
 * the methods that keep them. A facet of the invoices model, so these are `invoices/...` methods;
 * another company's recurring invoice is never found.
 */
@facet('invoices')
export class RecurringInvoices {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    description:
      'Add a recurring invoice: vars[client_id], vars[term] (1-65535), vars[period] (day, week, month, year), vars[duration] (how many invoices in all; blank: indefinitely), vars[currency], vars[date_renews] (when the first invoice is made, and due), vars[lines][i][description|amount|qty|tax], optional vars[delivery][], vars[note_public], vars[note_private]. Returns the recurring invoice id.',
    verb: 'POST',
    params: [object('vars', { default: {} })],
    vars: RECURRING_ADD,
    returns: count({ description: 'The new recurring invoice id.' }),
  })
  async addRecurring(vars: Record<string, unknown>) {
    const rules = new InvoiceRules(this.ctx.db, this.ctx.companyId, this.ctx.timezone);
    await assertValid(vars, recurringRuleSet(rules, vars, false));
    const client = rules.client!;
    const currency = String(vars.currency);
    const lines = readLines(vars.lines, rules);
    // Its invoices would be refused with a negative total: say so now rather than at every renewal.
    await totalFor(this.ctx.db, this.ctx.companyId, this.ctx.systemKey, client, currency, lines, rules.currency);
    const row = await this.ctx.db
      .insertInto('invoices_recur')
      .values({
        company_id: this.ctx.companyId,
        client_id: client.id,
        term: wholeNumber(vars.term)!,
        period: String(vars.period),
        duration: durationOf(vars.duration),
        currency,
        date_renews: formatUtc(rules.time(vars.date_renews)!),
        date_last_renewed: optionalText(vars.date_last_renewed) === null ? null : formatUtc(rules.time(vars.date_last_renewed)!),
        note_public: optionalText(vars.note_public),
        note_private: optionalText(vars.note_private),
        date_added: formatUtc(new Date()),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await writeRecurringLines(this.ctx.db, row.id, lines);
    for (const method of new Set(deliveryList(vars.delivery))) await addRecurringMethod(this.ctx.db, row.id, method);
    return row.id;
  }

  @callable({
    description:
      'Change a recurring invoice: any field addRecurring takes. vars[lines][i][id] changes that line (a blank description and amount remove it), a line without id is added, lines not named stay; vars[delivery][] replaces the delivery methods when given. Returns the recurring invoice id.',
    verb: 'PUT',
    params: [int('invoice_recur_id'), object('vars')],
    vars: RECURRING_EDIT,
    returns: count({ description: 'The recurring invoice id.' }),
  })
  async editRecurring(recurId: number, vars: Record<string, unknown>) {
    const current = await this.lock(recurId);
    const rules = new InvoiceRules(this.ctx.db, this.ctx.companyId, this.ctx.timezone);
    await assertValid(vars, recurringRuleSet(rules, vars, true));
    const clientId = rules.client?.id ?? current.client_id;
    const currency = typeof vars.currency === 'string' ? vars.currency : current.currency;
    const lines = vars.lines !== undefined ? mergeLineEdits(await storedRecurringLines(this.ctx.db, recurId), vars.lines, new Set()) : await storedRecurringLines(this.ctx.db, recurId);
    if (!lines.length) throw TallyError.invalid({ 'lines[0][description]': { empty: 'Please enter a line item description.' } });
    const client = (await findClientLocation(this.ctx.db, this.ctx.companyId, clientId))!;
    await totalFor(this.ctx.db, this.ctx.companyId, this.ctx.systemKey, client, currency, lines, rules.currency);
    const changes: Record<string, unknown> = { client_id: clientId, currency };
    if (vars.term !== undefined) changes.term = wholeNumber(vars.term);
    if (vars.period !== undefined) changes.period = String(vars.period);
    if (vars.duration !== undefined) changes.duration = durationOf(vars.duration);
    if (vars.date_renews !== undefined) changes.date_renews = formatUtc(rules.time(vars.date_renews)!);
    if (vars.date_last_renewed !== undefined) changes.date_last_renewed = optionalText(vars.date_last_renewed) === null ? null : formatUtc(rules.time(vars.date_last_renewed)!);
    for (const note of ['note_public', 'note_private'] as const) if (vars[note] !== undefined) changes[note] = optionalText(vars[note]);
    await this.ctx.db.updateTable('invoices_recur').set(changes).where('id', '=', recurId).execute();
    if (vars.lines !== undefined) await writeRecurringLines(this.ctx.db, recurId, lines);
    if (vars.delivery !== undefined) {
      await this.ctx.db.deleteFrom('invoice_recur_delivery').where('invoice_recur_id', '=', recurId).execute();
      for (const method of new Set(deliveryList(vars.delivery))) await addRecurringMethod(this.ctx.db, recurId, method);
    }
    return recurId;
  }

  @callable({ description: 'Delete a recurring invoice: it makes no more invoices; those it made stay.', verb: 'DELETE', params: [int('invoice_recur_id')], returns: nothing() })
  async deleteRecurring(recurId: number) {
    await this.lock(recurId);
    await deleteRecurringRows(this.ctx.db, [recurId]);
    return null;
  }

  @callable({
    description: "A recurring invoice with its line_items, delivery methods, total and the client's taxes on it; false when the company has no such recurring invoice.",
    verb: 'GET',
    params: [int('invoice_recur_id')],
    returns: orFalse(RECURRING_INVOICE),
  })
  async getRecurring(recurId: number) {
    const row = await recurringQuery(this.ctx.db, this.ctx.companyId).where('invoices_recur.id', '=', recurId).executeTakeFirst();
    if (!row) return false;
    const [summary] = await presentRecurring(this.ctx.db, [row]);
    const [lineItems, delivery, lines, client] = await Promise.all([
      readRecurringLines(this.ctx.db, [recurId]),
      readRecurringDelivery(this.ctx.db, recurId),
      storedRecurringLines(this.ctx.db, recurId),
      findClientLocation(this.ctx.db, this.ctx.companyId, row.client_id),
    ]);
    const totals = await totalFor(this.ctx.db, this.ctx.companyId, this.ctx.systemKey, client!, row.currency, lines);
    return {
      ...summary,
      line_items: lineItems,
      delivery,
      total: toStored(totals.total),
      taxes: totals.taxes.map((t) => ({ tax_id: t.id, level: t.level, name: t.name, rate: toStored(t.rate), type: t.type, amount: toStored(t.amount) })),
    };
  }

  @callable({
    description: 'Every recurring invoice of a client, or of the company when client_id is null, by id.',
    verb: 'GET',
    params: [int('client_id', { default: null })],
    returns: RECURRING_SUMMARIES,
  })
  async getAllRecurring(clientId: number | null) {
    return presentRecurring(this.ctx.db, await this.listed(clientId, {}).orderBy('invoices_recur.id').execute());
  }

  @callable({
    description: `One page (${PAGE_SIZE}) of recurring invoices, of one client or all; order[field]=asc|desc over ${Object.keys(RECURRING_ORDER).join(', ')}; filters[currency].`,
    verb: 'GET',
    params: [int('client_id', { default: null }), int('page', { default: 1 }), object('order', { default: { id: 'asc' } }), object('filters', { default: [] })],
    returns: RECURRING_SUMMARIES,
  })
  async getRecurringList(clientId: number | null, page: number, order: unknown, filters: unknown) {
    let sort = readOrder(order, RECURRING_ORDER, 'order');
    // The reference sorts by period and term together when asked for term.
    sort = sort.flatMap(([column, direction]) =>
      column === RECURRING_ORDER.term ? [[RECURRING_ORDER.period, direction] as const, [column, direction] as const] : [[column, direction] as const],
    ) as typeof sort;
    const query = ordered(this.listed(clientId, filters), sort, 'invoices_recur.id');
    return presentRecurring(this.ctx.db, await query.limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute());
  }

  @callable({
    description: 'How many recurring invoices getRecurringList lists for the same client and filters.',
    verb: 'GET',
    params: [int('client_id', { default: null }), object('filters', { default: [] })],
    returns: count(),
  })
  async getRecurringListCount(clientId: number | null, filters: unknown) {
    return this.counted(clientId, filters);
  }

  @callable({ description: 'How many recurring invoices a client has (the company, when client_id is null).', verb: 'GET', params: [int('client_id', { default: null })], returns: count() })
  async getRecurringCount(clientId: number | null) {
    return this.counted(clientId, {});
  }

  @callable({
    description: 'The line items of a recurring invoice, in order; [] when there is no such recurring invoice.',
    verb: 'GET',
    params: [int('invoice_recur_id')],
    returns: listOf(RECURRING_LINE_ITEM),
  })
  async getRecurringLineItems(recurId: number) {
    if (!(await this.find(recurId))) return [];
    return readRecurringLines(this.ctx.db, [recurId]);
  }

  @callable({
    description: 'The recurring invoice (as getRecurring) that made an invoice; false when the invoice was not made by one (or it was deleted).',
    verb: 'GET',
    params: [int('invoice_id')],
    returns: orFalse(RECURRING_INVOICE),
  })
  async getRecurringFromInvoices(invoiceId: number) {
    const made = await this.ctx.db
      .selectFrom('invoices_recur_created')
      .innerJoin('invoices', 'invoices.id', 'invoices_recur_created.invoice_id')
      .select('invoices_recur_created.invoice_recur_id')
      .where('invoices.company_id', '=', this.ctx.companyId)
      .where('invoices_recur_created.invoice_id', '=', invoiceId)
      .executeTakeFirst();
    return made ? this.getRecurring(made.invoice_recur_id) : false;
  }

  @callable({
    description:
      "What an invoice recurs at: the amount, term and period of the recurring invoice that made it, else of the services its lines bill (their renewal prices summed, when all share a term and period); false when it recurs at none, or its services' terms differ.",
    verb: 'GET',
    params: [int('invoice_id')],
    returns: orFalse(RECURRING_INFO),
  })
  async getRecurringInfo(invoiceId: number) {
    const recurring = await this.getRecurringFromInvoices(invoiceId);
    if (recurring) return { amount: recurring.total, term: recurring.term, period: recurring.period };
    const invoice = await this.ctx.db.selectFrom('invoices').select('id').where('company_id', '=', this.ctx.companyId).where('id', '=', invoiceId).executeTakeFirst();
    if (!invoice) return false;
    let info: { amount: ReturnType<typeof stored>; term: number; period: string } | null = null;
    const seen = new Set<number>();
    for (const line of await readLineItems(this.ctx.db, invoiceId)) {
      if (line.service_id === null || seen.has(line.service_id)) continue;
      seen.add(line.service_id);
      const service = await findService(this.ctx.db, this.ctx.companyId, line.service_id);
      if (!service) continue;
      const price = stored(service.override_price ?? service.price_renews ?? service.price).times(service.qty);
      if (info === null) info = { amount: price, term: service.term, period: service.period };
      else if (info.term === service.term && info.period === service.period) info.amount = info.amount.plus(price);
      else return false;
    }
    return info ? { amount: toStored(info.amount), term: info.term, period: info.period } : false;
  }

  @callable({
    description:
      "Add a delivery method (vars[method]: email, paper, interfax, postalmethods) to a recurring invoice of client_id; the invoices it makes are delivered so. Returns the delivery row's id.",
    verb: 'POST',
    params: [int('invoice_recur_id'), object('vars'), int('client_id')],
    vars: RECURRING_DELIVERY_ADD,
    returns: count({ description: 'The recurring delivery id.' }),
  })
  async addRecurringDelivery(recurId: number, vars: Record<string, unknown>, clientId: number) {
    await requireClientId(this.ctx.db, this.ctx.companyId, clientId);
    const recurring = await this.lock(recurId);
    if (recurring.client_id !== clientId) throw TallyError.invalid({ client_id: { exists: 'The recurring invoice is not of this client.' } });
    const method = vars.method;
    if (typeof method !== 'string' || !(DELIVERY_METHODS as readonly string[]).includes(method)) throw TallyError.invalid({ method: { exists: RECURRING_MESSAGES.method } });
    return addRecurringMethod(this.ctx.db, recurId, method);
  }

  @callable({
    description: 'Remove a delivery method (by its row id, as getRecurringDelivery lists it) from a recurring invoice.',
    verb: 'DELETE',
    params: [int('invoice_delivery_id')],
    returns: nothing(),
  })
  async deleteRecurringDelivery(deliveryId: number) {
    const row = await this.ctx.db
      .selectFrom('invoice_recur_delivery')
      .innerJoin('invoices_recur', 'invoices_recur.id', 'invoice_recur_delivery.invoice_recur_id')
      .select('invoice_recur_delivery.id')
      .where('invoices_recur.company_id', '=', this.ctx.companyId)
      .where('invoice_recur_delivery.id', '=', deliveryId)
      .executeTakeFirst();
    if (!row) throw TallyError.invalid({ invoice_delivery_id: { exists: 'Invalid recurring invoice delivery ID.' } });
    await this.ctx.db.deleteFrom('invoice_recur_delivery').where('id', '=', row.id).execute();
    return null;
  }

  @callable({
    description: 'The delivery methods of a recurring invoice; [] when there is no such recurring invoice.',
    verb: 'GET',
    params: [int('invoice_recur_id')],
    returns: listOf(RECURRING_DELIVERY),
  })
  async getRecurringDelivery(recurId: number) {
    if (!(await this.find(recurId))) return [];
    return readRecurringDelivery(this.ctx.db, recurId);
  }

  private listed(clientId: number | null, filters: unknown) {
    const { currency } = readFilters(filters, ['currency']);
    let query = recurringQuery(this.ctx.db, this.ctx.companyId);
    if (clientId !== null) query = query.where('invoices_recur.client_id', '=', clientId);
    if (currency !== undefined) query = query.where('invoices_recur.currency', '=', currency);
    return query;
  }

  private async counted(clientId: number | null, filters: unknown): Promise<number> {
    const row = await this.listed(clientId, filters)
      .clearSelect()
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  private find(recurId: number) {
    return this.ctx.db.selectFrom('invoices_recur').select(['id', 'client_id', 'currency']).where('company_id', '=', this.ctx.companyId).where('id', '=', recurId).executeTakeFirst();
  }

  /** The recurring invoice, its row locked for the call (PostgreSQL), or the reference's 400. */
  private async lock(recurId: number) {
    const query = this.ctx.db.selectFrom('invoices_recur').select(['id', 'client_id', 'currency']).where('company_id', '=', this.ctx.companyId).where('id', '=', recurId);
    const row = await forUpdate(this.ctx.db, query).executeTakeFirst();
    if (!row) throw invalidRecurring();
    return row;
  }
}

/** `duration`: blank is indefinitely (null), else how many invoices in all. */
function durationOf(value: unknown): number | null {
  return optionalText(value) === null ? null : wholeNumber(value);
}
