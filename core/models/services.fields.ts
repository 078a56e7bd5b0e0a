import { allOptional, bool, inputs, int, listOf, mapOf, money, record, string, timestamp } from '../kernel/shape';

/** The fields of services/* (see `@callable({ vars, returns })` in services.ts and services/service-queue-lists.ts). */

const STATUSES = ['pending', 'in_review', 'active', 'suspended', 'canceled'];
const PERIODS = ['day', 'week', 'month', 'year', 'onetime'];

export const SERVICE_FIELD = record({ key: string(), value: string(), encrypted: int({ enum: [0, 1], description: '1: stored encrypted with the system key (answered decrypted).' }) });

export const PACKAGE_PRICING = record({
  id: int(),
  term: int(),
  period: string({ enum: PERIODS }),
  price: money(),
  price_renews: money(),
  setup_fee: money(),
  cancel_fee: money(),
  currency: string({ format: 'currency' }),
});

export const SERVICE = record({
  id: int(),
  parent_service_id: int({ nullable: true, description: 'The service this one is an addon of.' }),
  package_group_id: int({ nullable: true }),
  pricing_id: int(),
  client_id: int(),
  module_row_id: int({ nullable: true, description: 'The module row (server) it was added on: vars[module_row_id], or a row of vars[module_group_id]; null when none was named.' }),
  coupon_id: int({ nullable: true }),
  qty: int(),
  override_price: money({ nullable: true }),
  override_currency: string({ format: 'currency', nullable: true }),
  status: string({ enum: STATUSES }),
  suspension_reason: string({ nullable: true }),
  date_added: timestamp(),
  date_renews: timestamp({ nullable: true, description: 'Null for one-time services.' }),
  date_last_renewed: timestamp({ nullable: true }),
  date_suspended: timestamp({ nullable: true }),
  date_canceled: timestamp({ nullable: true, description: 'In the future: a scheduled cancellation.' }),
  name: string({ description: "The package's name." }),
  package: record({ id: int(), name: string(), module: string({ nullable: true }), taxable: int({ enum: [0, 1] }), prorata_day: int({ nullable: true }) }),
  package_pricing: PACKAGE_PRICING,
  fields: listOf(SERVICE_FIELD),
});

export const SERVICES = listOf(SERVICE);

export const SIMPLE_SERVICES = listOf(record({ id: int(), client_id: int(), name: string(), status: string({ enum: STATUSES }), date_renews: timestamp({ nullable: true }) }));

export const SERVICE_ADD = inputs({
  pricing_id: int({ required: true, description: 'A pricing row of a package of the company.' }),
  client_id: int({ required: true }),
  status: string({ enum: ['pending', 'in_review', 'active'], description: 'Default pending.' }),
  use_module: bool({ description: "true (default): an active service is provisioned by the package's module now." }),
  qty: int({ description: 'Default 1.' }),
  coupon_id: int(),
  override_price: money({ description: "With override_currency: the price instead of the pricing's." }),
  override_currency: string({ format: 'currency' }),
  parent_service_id: int({ description: 'Makes it an addon of that service.' }),
  module_row_id: int({ description: "A row (server) of the package's module (module_manager/getRows) to add it on; the module receives the row when it provisions." }),
  module_group_id: int({ description: "A group of the package's module: the service goes on its first row, or with add_order roundrobin the row after the last used." }),
  date_added: timestamp({ description: 'Default now.' }),
  date_renews: timestamp({ description: "Default: the package's pro rata day, else one term after the start." }),
  configoptions: mapOf(string(), {
    example: {},
    description:
      "Package options as configoptions[<option_id>]=<value>: a select's, radio's or checkbox's value, a quantity, or a text; each an option of the package's option groups with a price for the service's term and currency. On edit it replaces them all (a pricing change without it keeps those the new pricing offers).",
  }),
});

export const SERVICE_EDIT = allOptional(SERVICE_ADD);

/** services/getOptions: one row per option the service took. */
export const SERVICE_OPTIONS = listOf(
  record({
    id: int(),
    service_id: int(),
    option_pricing_id: int({ nullable: true, description: "The option value's pricing row for the service's term, period and currency (null when it has none)." }),
    qty: int({ description: 'A quantity option: the quantity; otherwise 1.' }),
    value: string({ nullable: true, description: "The value the service took: a text option's text, else the option value's value." }),
    option_id: int(),
    option_label: string(),
    option_name: string(),
    option_type: string({ enum: ['select', 'radio', 'checkbox', 'quantity', 'text', 'textarea', 'password'] }),
    option_hidden: int({ enum: [0, 1] }),
    option_value_id: int(),
    option_value: string({ nullable: true }),
    option_value_name: string(),
    option_pricing_term: int({ nullable: true }),
    option_pricing_period: string({ nullable: true, enum: PERIODS }),
    option_pricing_price: money({ nullable: true }),
    option_pricing_price_renews: money({ nullable: true }),
    option_pricing_setup_fee: money({ nullable: true }),
    option_pricing_currency: string({ nullable: true, format: 'currency' }),
  }),
);

export const MODULE_FIELDS_NOTE = "Other keys are the module's fields (vars[domain] for generic_server).";

export const SERVICE_FIELD_INPUT = inputs({
  key: string({ required: true, example: 'domain' }),
  value: string({ example: 'example.com' }),
  encrypted: bool({ description: 'true: stored encrypted with the system key.' }),
});

export const CANCEL_VARS = inputs({
  date_canceled: string({ description: 'end_of_term (at its renew date) or a future date schedules it; none or a past date cancels now.' }),
  use_module: bool({ description: 'Default true.' }),
  notify_cancel: bool({ description: 'true: the client is mailed the service_cancellation template when it is cancelled now (a scheduled one is mailed when the billing run cancels it).' }),
});

export const SUSPEND_VARS = inputs({ use_module: bool({ description: 'Default true.' }), suspension_reason: string() });

export const UNCANCEL_VARS = inputs({ use_module: bool({ description: 'Accepted as the reference takes it; removing a scheduled cancellation needs no module.' }) });

export const MODULE_VARS = inputs({ use_module: bool({ description: 'Default true.' }) });

export const PRICING_INFO = record({
  service_id: int(),
  package_name: string(),
  name: string({ description: 'The package name and its term, e.g. "Hosting (1 month)".' }),
  qty: int(),
  term: int(),
  period: string({ enum: PERIODS }),
  currency: string({ format: 'currency' }),
  price: money({ description: "What one unit costs now (override price, else the pricing's)." }),
  price_renews: money({ description: 'What one unit costs at renewal.' }),
  setup_fee: money(),
  cancel_fee: money(),
});

export const PACKAGE_PRICING_INFO = record({ ...Object.fromEntries((PACKAGE_PRICING.fields ?? []).map((f) => [f.name, f])), package_id: int(), package_name: string() });

export const LABELS = mapOf(string());

/** services/getChangeQuote: what services/edit with vars[pricing_id] would invoice and credit now. */
export const CHANGE_QUOTE = record({
  pricing_id: int(),
  package_id: int(),
  package_name: string(),
  currency: string({ description: "The new pricing's currency, the one an invoice is in." }),
  invoice: money({ description: 'What would be invoiced now (0: nothing).' }),
  credit: money({ description: "What would go to the client's credit now (0: nothing)." }),
  credit_currency: string({ description: "The service's currency, the one the credit is in." }),
  date_renews: timestamp({ nullable: true, description: 'The renew date after the change.' }),
});
