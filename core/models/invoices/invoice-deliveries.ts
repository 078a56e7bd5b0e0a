import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { facet } from '../../kernel/model';
import { any, bool, int, object, string } from '../../kernel/parameter';
import { TallyError } from '../../kernel/tally-error';
import { formatUtc } from '../../kernel/timestamps';
import { int as count, listOf, nothing } from '../../kernel/shape';
import { PAGE_SIZE } from '../../kernel/paging';
import { DELIVERY_METHODS, MESSAGES } from '../../billing/invoice-rules';
import { requireClientId } from '../../billing/client-store';
import { lockInvoice } from '../../billing/invoice-lock';
import { ordered, readFilters, readOrder } from '../../billing/ordering';
import { pageOffset } from '../../billing/values';
import { queueEmailDelivery } from '../../delivery/invoice-email';
import { cancelInvoiceEmail } from '../../delivery/cancel-invoice-email';
import { deliveryQuery, deliveryRecord, presentDelivery } from './invoice-delivery-store';
import { DELIVERY, DELIVERY_ADD, DELIVERY_LIST } from '../invoice-deliveries.fields';

const invalidDelivery = () => TallyError.invalid({ invoice_delivery_id: { exists: 'Invalid invoice delivery ID.' } });

/** Fields getDeliveryList may order by. */
const DELIVERY_ORDER: Record<string, string> = {
  id: 'invoice_delivery.id',
  invoice_id: 'invoice_delivery.invoice_id',
  method: 'invoice_delivery.method',
  date_sent: 'invoice_delivery.date_sent',
  client_id: 'invoices.client_id',
};

/**
 * The reference's invoice delivery records (docs/delivery.md, "Delivery methods and the print
 * queue"): each is one way an invoice is to reach its client, `email` or `paper` (and the
 * reference's `interfax` and `postalmethods`, recorded only). An email delivery is written to the
 * mail outbox in the call's transaction and marked delivered by the mail worker when the server
 * takes it; a paper one waits in the print queue (invoices/getList status=to_print) until
 * invoices/delivered marks it printed. A facet of the invoices model, so these are `invoices/...`.
 */
@facet('invoices')
export class InvoiceDeliveries {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    description:
      'Deliver an invoice of client_id by vars[method] (email, paper, interfax, postalmethods). email: the invoice is mailed with its PDF (again, when it was mailed before); paper: it waits in the print queue (getList status=to_print) until invoices/delivered. A void invoice is never delivered. Returns the delivery id.',
    verb: 'POST',
    params: [int('invoice_id'), object('vars'), int('client_id')],
    vars: DELIVERY_ADD,
    returns: count({ description: 'The invoice delivery id.' }),
  })
  async addDelivery(invoiceId: number, vars: Record<string, unknown>, clientId: number) {
    await requireClientId(this.ctx.db, this.ctx.companyId, clientId);
    const invoice = await lockInvoice(this.ctx.db, this.ctx.companyId, invoiceId);
    if (invoice.client_id !== clientId) throw TallyError.invalid({ client_id: { exists: 'The invoice is not of this client.' } });
    const method = vars.method;
    if (typeof method !== 'string' || !(DELIVERY_METHODS as readonly string[]).includes(method)) throw TallyError.invalid({ method: { exists: MESSAGES.delivery } });
    if (invoice.status === 'void') throw TallyError.invalid({ invoice_id: { void: 'A void invoice is not delivered.' } });
    const row = await this.ctx.db.insertInto('invoice_delivery').values({ invoice_id: invoiceId, method, date_sent: null }).returning('id').executeTakeFirstOrThrow();
    // In this transaction: the message exists exactly when the delivery does.
    if (method === 'email') await queueEmailDelivery(this.ctx.db, this.ctx.companyId, invoiceId);
    return row.id;
  }

  @callable({
    description: "Mark an invoice delivery delivered (a paper delivery printed) now; one already delivered keeps its date. client_id, when given, must be the invoice's client.",
    verb: 'POST',
    params: [int('invoice_delivery_id'), int('client_id', { default: null })],
    returns: nothing(),
  })
  async delivered(deliveryId: number, clientId: number | null) {
    const delivery = await this.findDelivery(deliveryId, clientId);
    await this.ctx.db
      .updateTable('invoice_delivery')
      .set({ date_sent: formatUtc(new Date()) })
      .where('id', '=', delivery.id)
      .where('date_sent', 'is', null)
      .execute();
    return null;
  }

  @callable({
    description:
      "Remove an invoice delivery (a paper one leaves the print queue). client_id, when given, must be the invoice's client. Removing the invoice's last email delivery not yet sent cancels its message still waiting in the mail outbox; one already sent, or being sent at that moment, is not recalled.",
    verb: 'DELETE',
    params: [int('invoice_delivery_id'), int('client_id', { default: null })],
    returns: nothing(),
  })
  async deleteDelivery(deliveryId: number, clientId: number | null) {
    const delivery = await this.findDelivery(deliveryId, clientId);
    await this.ctx.db.deleteFrom('invoice_delivery').where('id', '=', delivery.id).execute();
    if (delivery.method === 'email') await cancelInvoiceEmail(this.ctx.db, this.ctx.companyId, delivery.invoice_id);
    return null;
  }

  @callable({
    description: 'The delivery records of an invoice, oldest first (sent=true: only those delivered); [] when the company has no such invoice.',
    verb: 'GET',
    params: [int('invoice_id'), bool('sent', { default: false })],
    returns: listOf(DELIVERY),
  })
  async getDelivery(invoiceId: number, sent: boolean) {
    let query = deliveryQuery(this.ctx.db, this.ctx.companyId).where('invoice_delivery.invoice_id', '=', invoiceId);
    if (sent) query = query.where('invoice_delivery.date_sent', 'is not', null);
    return (await query.orderBy('invoice_delivery.id').execute()).map(deliveryRecord);
  }

  @callable({
    description:
      "Every delivery record of the invoices invoice_ids[] (all the company's invoices when not given), oldest first; delivery_method (email, paper, ...) narrows it, status is all, unsent or sent. Another company's invoices have none.",
    verb: 'GET',
    params: [any('invoice_ids', { default: null }), string('delivery_method', { default: null }), string('status', { default: 'all' })],
    returns: listOf(DELIVERY),
  })
  async getAllDelivery(invoiceIds: unknown, method: string | null, status: string) {
    if (!['all', 'unsent', 'sent'].includes(status)) throw TallyError.invalid({ status: { format: 'Give all, unsent or sent.' } });
    let query = deliveryQuery(this.ctx.db, this.ctx.companyId);
    if (invoiceIds !== null && invoiceIds !== '') {
      const ids = Array.isArray(invoiceIds) ? invoiceIds : typeof invoiceIds === 'object' ? Object.values(invoiceIds as object) : [invoiceIds];
      if (!ids.every((id) => /^[1-9]\d{0,14}$/.test(String(id)))) throw TallyError.invalid({ invoice_ids: { format: 'Give invoice ids as invoice_ids[]=1.' } });
      // The reference ignores a list that is empty; so does this.
      if (ids.length) query = query.where('invoice_delivery.invoice_id', 'in', ids.map(Number));
    }
    if (method !== null && method !== '') query = query.where('invoice_delivery.method', '=', method);
    if (status !== 'all') query = query.where('invoice_delivery.date_sent', status === 'sent' ? 'is not' : 'is', null);
    return (await query.orderBy('invoice_delivery.id').execute()).map(deliveryRecord);
  }

  @callable({
    description:
      'One page (25) of invoice deliveries, of one client or all, newest first by default; order_by[field]=ASC|DESC over id, invoice_id, method, date_sent, client_id; filters[method], filters[sent] (true: delivered, false: waiting), filters[invoice_id].',
    verb: 'GET',
    params: [int('client_id', { default: null }), int('page', { default: 1 }), object('order_by', { default: { id: 'DESC' } }), object('filters', { default: [] })],
    returns: DELIVERY_LIST,
  })
  async getDeliveryList(clientId: number | null, page: number, orderBy: unknown, filters: unknown) {
    const query = ordered(this.deliveriesListed(clientId, filters), readOrder(orderBy, DELIVERY_ORDER), 'invoice_delivery.id');
    return (await query.limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute()).map(presentDelivery);
  }

  @callable({
    description: 'How many invoice deliveries getDeliveryList lists for the same client and filters.',
    verb: 'GET',
    params: [int('client_id', { default: null }), object('filters', { default: [] })],
    returns: count(),
  })
  async getDeliveryListCount(clientId: number | null, filters: unknown) {
    const row = await this.deliveriesListed(clientId, filters)
      .clearSelect()
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  private deliveriesListed(clientId: number | null, filters: unknown) {
    const known = readFilters(filters, ['method', 'sent', 'invoice_id']);
    let query = deliveryQuery(this.ctx.db, this.ctx.companyId);
    if (clientId !== null) query = query.where('invoices.client_id', '=', clientId);
    if (known.method !== undefined) query = query.where('invoice_delivery.method', '=', known.method);
    if (known.invoice_id !== undefined) query = query.where('invoice_delivery.invoice_id', '=', Number(known.invoice_id) || -1);
    if (known.sent !== undefined) {
      if (known.sent !== 'true' && known.sent !== 'false') throw TallyError.invalid({ 'filters[sent]': { format: 'Give true (delivered) or false (waiting).' } });
      query = query.where('invoice_delivery.date_sent', known.sent === 'true' ? 'is not' : 'is', null);
    }
    return query;
  }

  /** A delivery of one of the company's invoices (of client_id's, when given), or the 400 naming it. */
  private async findDelivery(deliveryId: number, clientId: number | null) {
    const row = await deliveryQuery(this.ctx.db, this.ctx.companyId).where('invoice_delivery.id', '=', deliveryId).executeTakeFirst();
    if (!row || (clientId !== null && row.client_id !== clientId)) throw invalidDelivery();
    return row;
  }
}
