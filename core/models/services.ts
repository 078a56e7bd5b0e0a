import { ServiceModuleInfo } from './services/service-module-info';
import { ServiceFieldSearch } from './services/service-field-search';
import { sql } from 'kysely';
import { containsPattern } from '../db/contains-pattern';
import { CallContext } from '../kernel/call-context';
import { is } from '../kernel/input-rules';
import { callable } from '../kernel/callable';
import { ModelCalls } from '../kernel/model-calls';
import { model } from '../kernel/model';
import { stored, toStored } from '../kernel/money';
import { any, bool, int, list, object, string } from '../kernel/parameter';
import { TallyError } from '../kernel/tally-error';
import { requireClientId } from '../billing/client-store';
import { formatUtc, parseTimestamp } from '../kernel/timestamps';
import { clientBillingSettings } from '../billing/billing-profiles';
import { BillingSettings } from '../billing/billing-settings';
import { shiftDays } from '../billing/run-clock';
import { pageOffset, truthy } from '../billing/values';
import { ordered, readFilters, readOrder } from '../billing/ordering';
import { quoteChange } from './services/package-change';
import { editPricing } from './services/pricing-edit';
import { billedAs, optionPricesAt, readOptionEdit } from './services/service-option-edit';
import { pricedOptions, serviceOptionList } from '../billing/service-options';
import { optionsTermPrice } from '../billing/option-charges';
import { nextRenewDate, Period, PERIODS } from '../billing/renew-dates';
import { addService } from './services/service-add';
import { takeCoupon } from '../billing/coupon-use';
import { checkParent } from './services/service-parent';
import { writeFields } from '../billing/service-fields';
import { packagePricing, pricingInfo, SERVICE_ACTIONS } from './services/service-pricing-info';
import { ServiceQueueLists } from './services/service-queue-lists';
import { ServiceChangeProcessing } from './services/service-change-processing';
import { lockService, presentServices, requireService, SERVICE_FILTERS, SERVICE_STATUSES, serviceCurrency, serviceQuery, ServiceRow } from '../billing/service-store';
import { isFieldKey, readServiceVars } from './services/service-vars';
import { bool as yes, int as count, money, nothing, orFalse, timestamp } from '../kernel/shape';
import {
  CANCEL_VARS,
  CHANGE_QUOTE,
  LABELS,
  MODULE_VARS,
  PACKAGE_PRICING_INFO,
  PRICING_INFO,
  SERVICE,
  SERVICE_ADD,
  SERVICE_EDIT,
  SERVICE_FIELD_INPUT,
  SERVICE_OPTIONS,
  SERVICES,
  SIMPLE_SERVICES,
  SUSPEND_VARS,
  UNCANCEL_VARS,
} from './services.fields';
import { ServiceTransitions } from '../billing/transitions';
import { mailServiceMoves } from '../delivery/service-email';
import { PAGE_SIZE } from '../kernel/paging';
import { emitServiceEvent } from '../billing/service-event';

/** getList's order_by fields (→ columns); newest first by default, as the reference. */
const ORDER: Record<string, string> = { date_added: 'services.date_added', date_renews: 'services.date_renews', status: 'services.status', id: 'services.id', package_name: 'packages.name' };
/** The reference's getList filters Tally can answer. */
const LIST_FILTERS = ['package_id', 'package_name'] as const;
const STATUS_NAMES: Record<string, string> = { active: 'Active', canceled: 'Canceled', pending: 'Pending', suspended: 'Suspended', in_review: 'In Review' };

/**
 * A client's services: instances of a package pricing, with their status (pending, in_review,
 * active, suspended, canceled), renew dates and fields. Lifecycle actions call the package's
 * module first, in the same transaction: a module that refuses leaves the service unchanged and
 * its error is the answer (400).
 */
@model('services', { facets: [ServiceQueueLists, ServiceFieldSearch, ServiceModuleInfo, ServiceChangeProcessing] })
export class Services {
  constructor(
    private readonly ctx: CallContext,
    private readonly calls: ModelCalls,
  ) {}

  @callable({
    returns: count({ description: 'The new service id.' }),
    vars: SERVICE_ADD,
    verb: 'POST',
    params: [object('vars', { default: {} }), any('packages', { default: null }), bool('notify', { default: false })],
    description:
      "Add a service: vars[pricing_id], vars[client_id], optional vars[status] (pending, in_review, active; pending), vars[use_module] (true: an active service is provisioned by the package's module), vars[qty], vars[coupon_id], vars[override_price] and vars[override_currency], vars[parent_service_id], vars[date_added], vars[date_renews], and module fields (e.g. vars[domain]). notify=true mails the client the service_creation template once the service is active. Returns its id.",
  })
  async add(vars: Record<string, unknown>, _packages: unknown, notify: boolean) {
    const serviceId = await addService(this.ctx, this.calls, vars, this.now(), notify);
    await emitServiceEvent(this.ctx, 'Services.add', serviceId);
    return serviceId;
  }

  @callable({
    returns: count({ description: 'The service id.' }),
    vars: SERVICE_EDIT,
    verb: 'PUT',
    params: [int('service_id'), object('vars'), bool('bypass_module', { default: false }), bool('notify', { default: false })],
    description:
      'Change a service: vars[pricing_id] moves it to another package or term (prorated: an upgrade is invoiced, a downgrade credited; with the company setting queue_service_changes, a change that costs money waits for its invoice to be paid, see service_changes), vars[status] active provisions a pending service, vars[qty], vars[override_price], vars[override_currency], vars[coupon_id], vars[date_renews], and fields. Returns its id.',
  })
  async edit(serviceId: number, vars: Record<string, unknown>, bypassModule: boolean, notify: boolean) {
    const service = await lockService(this.ctx.db, this.ctx.companyId, serviceId);
    const read = await readServiceVars(this.ctx.db, this.ctx.companyId, this.ctx.timezone, vars, true);
    const options = await readOptionEdit(this.ctx.db, this.ctx.companyId, service, read.pricing, vars.configoptions);
    Object.assign(read.errors, options.errors);
    if (Object.keys(read.errors).length) throw TallyError.invalid(read.errors);
    const { pricing_id: pricingId, status, client_id: clientId, ...columns } = read.values;
    if (clientId !== undefined && clientId !== service.client_id) throw TallyError.invalid({ client_id: { move: 'Use services/move to give a service to another client.' } });
    if (columns.parent_service_id) await checkParent(this.ctx.db, service, columns.parent_service_id);
    // Another coupon is taken as services/add takes one: usable for the package now, with a use left.
    if (columns.coupon_id && columns.coupon_id !== service.coupon_id) await takeCoupon(this.ctx, this.calls, columns.coupon_id, read.pricing?.package_id ?? service.package_id);
    // Staff giving a suspended service a reason of their own make the suspension theirs: the run
    // unsuspends only what it suspended for non-payment, not a service since held for abuse.
    const takenOver = service.status === 'suspended' && columns.suspension_reason !== undefined && columns.suspension_reason !== service.suspension_reason;
    if (Object.keys(columns).length)
      await this.ctx.db
        .updateTable('services')
        .set(takenOver ? { ...columns, auto_suspended: 0 } : columns)
        .where('id', '=', serviceId)
        .execute();
    await writeFields(this.ctx.db, serviceId, read.fields, this.ctx.systemKey);
    const moving = pricingId !== undefined && pricingId !== service.pricing_id;
    if (moving && bypassModule) throw TallyError.invalid({ pricing_id: { module: 'A package change needs the module; do not bypass it.' } });
    const current = await requireService(this.ctx.db, this.ctx.companyId, serviceId);
    await editPricing(this.ctx, this.calls, current, pricingId, options, this.now());
    if (status !== undefined && status !== service.status)
      await this.moveTo(await requireService(this.ctx.db, this.ctx.companyId, serviceId), status, !bypassModule, columns.suspension_reason, notify);
    await emitServiceEvent(this.ctx, 'Services.edit', serviceId);
    return serviceId;
  }

  @callable({ returns: orFalse(SERVICE), verb: 'GET', params: [int('service_id')], description: 'A service with its package, pricing and fields, or false.' })
  async get(serviceId: number) {
    const row = await serviceQuery(this.ctx.db, this.ctx.companyId).where('services.id', '=', serviceId).executeTakeFirst();
    return row ? (await presentServices(this.ctx.db, [row], this.ctx.systemKey))[0] : false;
  }

  @callable({
    returns: SERVICES,
    verb: 'GET',
    params: [
      int('client_id', { default: null }),
      string('status', { default: 'active' }),
      int('page', { default: 1 }),
      object('order_by', { default: { date_added: 'DESC' } }),
      bool('children', { default: true }),
      any('filters', { default: [] }),
      any('formatted_filters', { default: [] }),
    ],
    description: `One page (25) of services of one status (pending, in_review, active, suspended, canceled, scheduled_cancellation, all; active), optionally of one client; order_by[field]=ASC|DESC over ${Object.keys(ORDER).join(', ')}; children=false leaves out addons; filters[${LIST_FILTERS.join('], filters[')}]. formatted_filters is accepted and unused.`,
  })
  async getList(clientId: number | null, status: string, page: number, orderBy: unknown, children: boolean, filters: unknown, _formattedFilters: unknown) {
    const query = ordered(this.listed(clientId, status, children, null, filters), readOrder(orderBy, ORDER), 'services.id');
    return presentServices(this.ctx.db, await query.limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute(), this.ctx.systemKey);
  }

  @callable({
    returns: count(),
    verb: 'GET',
    params: [
      int('client_id', { default: null }),
      string('status', { default: 'active' }),
      bool('children', { default: true }),
      int('package_id', { default: null }),
      any('filters', { default: [] }),
      any('formatted_filters', { default: [] }),
    ],
    description: 'How many services getList would list (optionally of one package; filters as getList).',
  })
  getListCount(clientId: number | null, status: string, children: boolean, packageId: number | null, filters: unknown, _formattedFilters: unknown) {
    return this.count(this.listed(clientId, status, children, packageId, filters));
  }

  @callable({
    returns: SERVICES,
    verb: 'GET',
    params: [
      int('client_id'),
      string('status', { default: 'active' }),
      object('order_by', { default: { date_added: 'DESC' } }),
      bool('children', { default: true }),
      int('package_id', { default: null }),
    ],
    description: 'Every service of a client of one status, ordered as getList.',
  })
  async getAllByClient(clientId: number, status: string, orderBy: unknown, children: boolean, packageId: number | null) {
    const query = ordered(this.listed(clientId, status, children, packageId, []), readOrder(orderBy, ORDER), 'services.id');
    return presentServices(this.ctx.db, await query.execute(), this.ctx.systemKey);
  }

  @callable({
    returns: count(),
    verb: 'GET',
    params: [int('client_id'), string('status', { default: 'active' }), bool('children', { default: true }), any('filters', { default: [] }), any('formatted_filters', { default: [] })],
    description: 'How many services of a client have a status (filters as getList).',
  })
  getStatusCount(clientId: number, status: string, children: boolean, filters: unknown, _formattedFilters: unknown) {
    return this.count(this.listed(clientId, status, children, null, filters));
  }

  @callable({
    returns: SIMPLE_SERVICES,
    verb: 'GET',
    params: [int('client_id', { default: null }), int('page', { default: 1 })],
    description: 'One page of services (every status) with only id, client, package name, status and renew date.',
  })
  async getSimpleList(clientId: number | null, page: number) {
    const rows = await this.filtered(clientId, 'all', true).orderBy('services.id', 'desc').limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute();
    return rows.map((r) => ({ id: r.id, client_id: r.client_id, name: r.package_name, status: r.status, date_renews: r.date_renews }));
  }

  @callable({
    returns: SERVICES,
    verb: 'GET',
    params: [string('query'), int('page', { default: 1 }), bool('search_fields', { default: false })],
    description: 'Services whose package name or a (non-secret) field value contains the query (fields are always searched: search_fields changes nothing).',
  })
  async search(query: string, page: number, _searchFields: boolean) {
    const rows = await this.searched(query).orderBy('services.id', 'desc').limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute();
    return presentServices(this.ctx.db, rows, this.ctx.systemKey);
  }

  @callable({ returns: count(), verb: 'GET', params: [string('query'), bool('search_fields', { default: false })], description: 'How many services search finds.' })
  getSearchCount(query: string, _searchFields: boolean) {
    return this.count(this.searched(query));
  }

  @callable({
    returns: SERVICES,
    verb: 'GET',
    params: [object('order_by', { default: { date_added: 'DESC' } }), bool('children', { default: true }), object('filters', { default: [] }), object('formatted_filters', { default: [] })],
    description: `Every service of the company, ordered by order_by[field]=ASC|DESC over ${Object.keys(ORDER).join(', ')} (newest first by default); filters[client_id], filters[status] (as getList; default all), filters[package_id] (a filter given that is not a whole number, or a status given as a list, is a 400); children=false leaves out addons. formatted_filters is accepted and unused.`,
  })
  async getAll(orderBy: unknown, children: boolean, filters: unknown, _formattedFilters: unknown) {
    const order = readOrder(orderBy, ORDER);
    const f = (filters && typeof filters === 'object' && !Array.isArray(filters) ? filters : {}) as Record<string, unknown>;
    // A filter given but unreadable is refused: dropped, it would widen the list to every client's services.
    const errors: Record<string, Record<string, string>> = {};
    for (const key of ['client_id', 'package_id'])
      if (is.present(f[key]) && !is.integer(f[key])) errors[`filters[${key}]`] = { format: `filters[${key}] must be a whole number from -2147483648 to 2147483647.` };
    if (is.present(f.status) && typeof f.status !== 'string') errors['filters[status]'] = { format: 'filters[status] must be a single status.' };
    if (Object.keys(errors).length) throw TallyError.invalid(errors);
    let query = this.filtered(is.present(f.client_id) ? Number(f.client_id) : null, typeof f.status === 'string' && f.status ? f.status : 'all', children);
    if (is.present(f.package_id)) query = query.where('packages.id', '=', Number(f.package_id));
    return presentServices(this.ctx.db, await ordered(query, order, 'services.id').execute(), this.ctx.systemKey);
  }

  @callable({
    returns: PRICING_INFO,
    verb: 'GET',
    params: [int('service_id'), string('currency_code', { default: null })],
    description:
      "What a service costs: package name, term, period, currency, price and renewal price (its override price when set), setup and cancellation fees. currency_code other than the service's is refused (Tally converts nothing).",
  })
  async getPricingInfo(serviceId: number, currencyCode: string | null) {
    return pricingInfo(await requireService(this.ctx.db, this.ctx.companyId, serviceId), currencyCode);
  }

  @callable({ returns: orFalse(PACKAGE_PRICING_INFO), verb: 'GET', params: [int('pricing_id')], description: "A package pricing row with its package's id and name, or false." })
  getPackagePricing(pricingId: number) {
    return packagePricing(this.ctx.db, this.ctx.companyId, pricingId);
  }

  @callable({
    returns: CHANGE_QUOTE,
    verb: 'GET',
    params: [int('service_id'), int('pricing_id')],
    description:
      "What services/edit with vars[pricing_id] would do now, changing nothing: the prorated amount it would invoice (in the new pricing's currency) and the unused time it would credit (in the service's), and the renew date after it.",
  })
  async getChangeQuote(serviceId: number, pricingId: number) {
    const service = await requireService(this.ctx.db, this.ctx.companyId, serviceId);
    const quote = await quoteChange(this.ctx, service, pricingId, this.now(), await optionPricesAt(this.ctx.db, this.ctx.companyId, service, pricingId));
    if (!quote) throw TallyError.invalid({ pricing_id: { exists: 'Invalid pricing ID.' } });
    return {
      pricing_id: pricingId,
      package_id: quote.next.package_id,
      package_name: quote.next.name,
      currency: quote.next.currency,
      invoice: toStored(quote.net.gt(0) ? quote.net : stored(0)),
      credit: toStored(quote.refund.gt(0) ? quote.refund : stored(0)),
      credit_currency: quote.currency,
      date_renews: quote.dateRenews,
    };
  }

  @callable({
    returns: SERVICE_OPTIONS,
    verb: 'GET',
    params: [int('service_id')],
    description:
      "The package options a service took (services/add and edit's configoptions): each with the option's id, label, name and type, the value's id, value and name, the quantity, and the option's pricing row for the service's term, period and currency.",
  })
  async getOptions(serviceId: number) {
    const service = await requireService(this.ctx.db, this.ctx.companyId, serviceId);
    return serviceOptionList(this.ctx.db, { id: service.id, ...billedAs(service) });
  }

  @callable({ returns: LABELS, verb: 'GET', description: 'The lifecycle actions on a service and their names.' })
  getActions() {
    return SERVICE_ACTIONS;
  }

  @callable({
    returns: nothing(),
    vars: CANCEL_VARS,
    verb: 'POST',
    params: [int('service_id'), object('vars', { default: {} })],
    description: 'Cancel a service: vars[date_canceled] "end_of_term" (at its renew date) or a future date schedules it; none or a past date cancels now through the module (vars[use_module], true).',
  })
  async cancel(serviceId: number, vars: Record<string, unknown>) {
    const service = await requireService(this.ctx.db, this.ctx.companyId, serviceId);
    const when = vars.date_canceled;
    const now = this.now();
    let at: string | null = null;
    if (when === 'end_of_term') at = service.date_renews;
    else if (typeof when === 'string' && when !== '') {
      const parsed = parseTimestamp(when, this.ctx.timezone);
      if (!parsed) throw TallyError.invalid({ date_canceled: { format: 'Give end_of_term or a date as YYYY-MM-DD hh:mm:ss.' } });
      at = formatUtc(parsed);
    }
    if (at !== null && at > now) {
      await this.transitions().scheduleCancel(service, at);
      return null;
    }
    await this.transitions().cancel(service, vars.use_module === undefined || truthy(vars.use_module), vars.notify_cancel !== undefined && truthy(vars.notify_cancel));
    return null;
  }

  @callable({ returns: nothing(), vars: UNCANCEL_VARS, verb: 'POST', params: [int('service_id'), object('vars', { default: {} })], description: 'Remove a scheduled cancellation.' })
  async unCancel(serviceId: number, _vars: Record<string, unknown>) {
    const service = await requireService(this.ctx.db, this.ctx.companyId, serviceId);
    if (service.status === 'canceled') throw TallyError.invalid({ status: { transition: 'The service is already canceled; add a new one instead.' } });
    await this.ctx.db.updateTable('services').set({ date_canceled: null }).where('id', '=', serviceId).execute();
    return null;
  }

  @callable({
    returns: nothing(),
    vars: SUSPEND_VARS,
    verb: 'POST',
    params: [int('service_id'), object('vars', { default: {} })],
    description: 'Suspend an active service through its module (vars[use_module], true), with vars[suspension_reason].',
  })
  async suspend(serviceId: number, vars: Record<string, unknown>) {
    const service = await requireService(this.ctx.db, this.ctx.companyId, serviceId);
    await this.transitions().suspend(service, {
      useModule: vars.use_module === undefined || truthy(vars.use_module),
      reason: typeof vars.suspension_reason === 'string' ? vars.suspension_reason : null,
    });
    return null;
  }

  @callable({
    returns: nothing(),
    vars: MODULE_VARS,
    verb: 'POST',
    params: [int('service_id'), object('vars', { default: {} })],
    description: 'Unsuspend a suspended service through its module (vars[use_module], true).',
  })
  async unsuspend(serviceId: number, vars: Record<string, unknown>) {
    await this.transitions().unsuspend(await requireService(this.ctx.db, this.ctx.companyId, serviceId), vars.use_module === undefined || truthy(vars.use_module));
    return null;
  }

  @callable({
    returns: nothing(),
    verb: 'POST',
    params: [int('service_id'), int('invoice_id', { default: null })],
    description: 'Tell the module a renewal was paid (the billing run does this when the renewal invoice is paid); with invoice_id, that renewal is marked processed.',
  })
  async renew(serviceId: number, invoiceId: number | null) {
    await this.transitions().renew(await requireService(this.ctx.db, this.ctx.companyId, serviceId));
    if (invoiceId !== null) await this.ctx.db.updateTable('service_invoices').set({ date_processed: this.now() }).where('service_id', '=', serviceId).where('invoice_id', '=', invoiceId).execute();
    return null;
  }

  @callable({
    returns: nothing(),
    verb: 'DELETE',
    params: [int('service_id'), bool('validate', { default: true })],
    description: "Delete a pending or in_review service (others are canceled, never deleted). validate=false (the reference's delete without its checks) is refused: Tally always checks.",
  })
  async delete(serviceId: number, validate: boolean) {
    if (!validate) throw TallyError.invalid({ validate: { unsupported: 'Tally does not support validate=false: a service is deleted only when it is pending or in review; cancel others.' } });
    const service = await requireService(this.ctx.db, this.ctx.companyId, serviceId);
    if (!['pending', 'in_review'].includes(service.status)) throw TallyError.invalid({ status: { pending: 'Only pending services can be deleted; cancel this one instead.' } });
    for (const table of ['service_fields', 'service_invoices', 'service_options'] as const) await this.ctx.db.deleteFrom(table).where('service_id', '=', serviceId).execute();
    await this.ctx.db.deleteFrom('services').where('id', '=', serviceId).execute();
    return null;
  }

  @callable({
    returns: count({ description: 'The service id.' }),
    verb: 'POST',
    params: [int('service_id'), int('client_id')],
    description: 'Give a service (and its addons) to another client of the company. Returns its id.',
  })
  async move(serviceId: number, clientId: number) {
    const service = await requireService(this.ctx.db, this.ctx.companyId, serviceId);
    await requireClientId(this.ctx.db, this.ctx.companyId, clientId);
    await this.ctx.db
      .updateTable('services')
      .set({ client_id: clientId })
      .where('company_id', '=', this.ctx.companyId)
      .where((eb) => eb.or([eb('id', '=', serviceId), eb('parent_service_id', '=', serviceId)]))
      .execute();
    // An addon moved alone leaves its parent, which stays with the old client: an addon is always its parent's client's.
    if (service.parent_service_id !== null && clientId !== service.client_id) await this.ctx.db.updateTable('services').set({ parent_service_id: null }).where('id', '=', serviceId).execute();
    return serviceId;
  }

  @callable({ returns: SERVICES, verb: 'GET', params: [int('parent_service_id'), string('status', { default: 'all' })], description: 'The addon services of a service.' })
  async getAllChildren(parentId: number, status: string) {
    return presentServices(this.ctx.db, await this.filtered(null, status, true).where('services.parent_service_id', '=', parentId).orderBy('services.id').execute(), this.ctx.systemKey);
  }

  @callable({ returns: count(), verb: 'GET', params: [int('parent_service_id'), string('status', { default: 'all' })], description: 'How many addon services a service has.' })
  getAllChildrenCount(parentId: number, status: string) {
    return this.count(this.filtered(null, status, true).where('services.parent_service_id', '=', parentId));
  }

  @callable({ returns: yes(), verb: 'GET', params: [int('service_id'), string('status', { default: null })], description: 'Whether a service has addons (of a status).' })
  async hasChildren(serviceId: number, status: string | null) {
    return (await this.getAllChildrenCount(serviceId, status ?? 'all')) > 0;
  }

  @callable({ returns: yes(), verb: 'GET', params: [int('service_id')], description: 'Whether a service is an addon of another.' })
  async hasParent(serviceId: number) {
    return (await requireService(this.ctx.db, this.ctx.companyId, serviceId)).parent_service_id !== null;
  }

  @callable({
    returns: money(),
    verb: 'GET',
    params: [int('service_id'), string('currency', { default: null })],
    description: "What the next renewal costs (override price, else renewal price, times quantity, plus the renewal price of the service's package options), as a decimal string.",
  })
  async getRenewalPrice(serviceId: number, currency: string | null) {
    const service = await requireService(this.ctx.db, this.ctx.companyId, serviceId);
    if (currency !== null && currency !== serviceCurrency(service)) throw TallyError.invalid({ currency: { convert: `The service is billed in ${serviceCurrency(service)}.` } });
    const options = (await pricedOptions(this.ctx.db, [{ id: service.id, ...billedAs(service) }])).get(service.id) ?? [];
    return toStored(
      stored(service.override_price ?? service.price_renews ?? service.price)
        .times(service.qty)
        .plus(optionsTermPrice(options, Number(service.qty), true)),
    );
  }

  @callable({
    returns: orFalse(timestamp()),
    verb: 'GET',
    params: [string('last_renew_date'), int('term'), string('period')],
    description: "The renew date term × period after a date, on the company's calendar (31 January + 1 month is the last day of February); false for one-time.",
  })
  getNextRenewDate(lastRenewDate: string, term: number, period: string) {
    const from = parseTimestamp(lastRenewDate, this.ctx.timezone);
    if (!from) throw TallyError.invalid({ last_renew_date: { format: 'Please give a date as YYYY-MM-DD hh:mm:ss.' } });
    if (!PERIODS.includes(period as Period)) throw TallyError.invalid({ period: { format: 'The period must be day, week, month, year or onetime.' } });
    if (term < 1 || term > 65535) throw TallyError.invalid({ term: { format: 'The term must be a whole number from 1 to 65535.' } });
    return nextRenewDate(formatUtc(from), term, period as Period, this.ctx.timezone) ?? false;
  }

  @callable({
    returns: orFalse(timestamp()),
    verb: 'GET',
    params: [int('service_id')],
    description: "When the billing run will invoice the next renewal (renew date less the company's invoice days), or false.",
  })
  async getNextInvoiceDate(serviceId: number) {
    const service = await requireService(this.ctx.db, this.ctx.companyId, serviceId);
    if (!service.date_renews || service.period === 'onetime') return false;
    const settings = (await clientBillingSettings(this.ctx.db, this.ctx.companyId, service.client_id, this.ctx.systemKey)) as BillingSettings;
    return shiftDays(service.date_renews, -settings.invoiceDaysBeforeRenewal, this.ctx.timezone);
  }

  @callable({
    returns: nothing(),
    vars: SERVICE_FIELD_INPUT,
    verb: 'POST',
    params: [int('service_id'), object('vars')],
    description: 'Add or replace service fields: vars[key], vars[value], vars[encrypted].',
  })
  async addField(serviceId: number, vars: Record<string, unknown>) {
    await requireService(this.ctx.db, this.ctx.companyId, serviceId);
    if (!isFieldKey(vars.key)) throw TallyError.invalid({ key: { format: "A field key is a name of letters, digits and _ (module_service_id is the module's own)." } });
    await writeFields(this.ctx.db, serviceId, { [vars.key]: vars.value ?? '' }, this.ctx.systemKey, truthy(vars.encrypted) ? new Set([vars.key]) : new Set());
    return null;
  }

  @callable({ returns: nothing(), vars: SERVICE_FIELD_INPUT, verb: 'PUT', params: [int('service_id'), object('vars')], description: 'Change a service field (as addField).' })
  editField(serviceId: number, vars: Record<string, unknown>) {
    return this.addField(serviceId, vars);
  }

  @callable({
    returns: nothing(),
    vars: SERVICE_FIELD_INPUT,
    verb: 'POST',
    params: [int('service_id'), list('vars')],
    description: 'Set several fields: vars[i][key], vars[i][value], vars[i][encrypted].',
  })
  async setFields(serviceId: number, vars: unknown) {
    const items = Array.isArray(vars) ? vars : vars && typeof vars === 'object' ? Object.values(vars) : [];
    for (const item of items) await this.addField(serviceId, (item ?? {}) as Record<string, unknown>);
    return null;
  }

  @callable({ returns: LABELS, verb: 'GET', description: 'The service statuses and their names.' })
  getStatusTypes() {
    return STATUS_NAMES;
  }

  private async moveTo(service: ServiceRow, status: string, useModule: boolean, reason: string | null | undefined, notify: boolean): Promise<void> {
    const t = this.transitions();
    if (status === 'active' && ['pending', 'in_review'].includes(service.status)) return t.activate(service, useModule, notify);
    if (status === 'active' && service.status === 'suspended') return t.unsuspend(service, useModule);
    if (status === 'suspended') return t.suspend(service, { useModule, reason });
    if (status === 'canceled') return t.cancel(service, useModule, notify);
    if (status === 'in_review' && service.status === 'pending') {
      await this.ctx.db.updateTable('services').set({ status }).where('id', '=', service.id).execute();
      return;
    }
    throw TallyError.invalid({ status: { transition: `A ${service.status} service cannot become ${status}.` } });
  }

  private filtered(clientId: number | null, status: string, children: boolean) {
    if (![...SERVICE_STATUSES, ...SERVICE_FILTERS].includes(status as never)) {
      throw TallyError.invalid({ status: { format: 'The status must be pending, in_review, active, suspended, canceled, scheduled_cancellation or all.' } });
    }
    let query = serviceQuery(this.ctx.db, this.ctx.companyId);
    if (clientId !== null) query = query.where('services.client_id', '=', clientId);
    if (!children) query = query.where('services.parent_service_id', 'is', null);
    if (status === 'scheduled_cancellation') query = query.where('services.date_canceled', 'is not', null).where('services.status', '!=', 'canceled');
    else if (status !== 'all') query = query.where('services.status', '=', status);
    return query;
  }

  /** getList's services: filtered() narrowed to one package and by the reference's filters. */
  private listed(clientId: number | null, status: string, children: boolean, packageId: number | null, filters: unknown) {
    const given = readFilters(filters, LIST_FILTERS);
    if (given.package_id !== undefined && !is.integer(given.package_id)) throw TallyError.invalid({ 'filters[package_id]': { format: 'filters[package_id] must be a whole number.' } });
    let query = this.filtered(clientId, status, children);
    if (packageId !== null) query = query.where('packages.id', '=', packageId);
    if (given.package_id !== undefined) query = query.where('packages.id', '=', Number(given.package_id));
    if (given.package_name !== undefined) query = query.where(sql`lower(packages.name)`, 'like', containsPattern(given.package_name));
    return query;
  }

  private searched(query: string) {
    const like = containsPattern(query);
    return serviceQuery(this.ctx.db, this.ctx.companyId).where((eb) =>
      eb.or([
        eb(sql`lower(packages.name)`, 'like', like),
        eb.exists(
          eb
            .selectFrom('service_fields')
            .select('service_id')
            .whereRef('service_fields.service_id', '=', 'services.id')
            .where('service_fields.encrypted', '=', 0)
            .where(sql`lower(service_fields.value)`, 'like', like),
        ),
      ]),
    );
  }

  private async count(query: ReturnType<Services['searched']>) {
    const row = await query
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  private transitions() {
    return new ServiceTransitions(this.ctx, this.calls, this.now(), mailServiceMoves(this.ctx.db));
  }

  private now(): string {
    return formatUtc(new Date());
  }
}
