import { EVENT_NAMES, EventName } from '../../events/event-names';
import { Shape, int, listOf, record, string, timestamp } from '../../kernel/shape';
import { API_KEY } from '../api-keys.fields';
import { CLIENT } from '../clients.fields';
import { CONTACT } from '../contacts.fields';
import { INVOICE } from '../invoices.fields';
import { PACKAGE } from '../packages.fields';
import { SERVICE } from '../services.fields';
import { TRANSACTION } from '../transactions.fields';

/** One kind of event: its name, what makes it, and what its payload holds. */
export interface EventType {
  readonly type: EventName;
  readonly description: string;
  /** What the payload is, in words (docs/events.md and events/getTypes). */
  readonly payload: string;
  /** The payload's fields (OpenAPI). */
  readonly shape: Shape;
  /** `reference`: the reference system has an event of this name; `tally`: Tally's own. */
  readonly origin: 'reference' | 'tally';
}

const asAnswered = (call: string) => `The record as ${call} answers it.`;
const removed = (noun: string, call: string) => `The ${noun} as ${call} answered it just before it was deleted.`;

const INVOICE_CLOSED = record({ invoice_id: int(), client_id: int(), currency: string(), total: string({ format: 'money' }), paid: string({ format: 'money' }), date_closed: timestamp() });
const LOGIN = record({ user_id: int(), username: string(), type: string({ description: 'The kind of login asked for (any, staff, client, contact).' }) });
const AUTODEBIT = record({
  invoice_id: int(),
  client_id: int(),
  amount: string({ format: 'money' }),
  currency: string(),
  attempt: int({ description: 'Which attempt this was (1 is the first).' }),
  reason: string(),
});
const UNAPPLIED = record({
  notification_id: int({ nullable: true, description: "The gateway notification (gateway_notifications/get); null when the payment came with the payer's return or a charge." }),
  gateway: string(),
  reason: string({ description: 'Why the payment was not applied to the invoices it names.' }),
  transaction: TRANSACTION,
});
const CONTACT_PERMISSIONS = record({ contact_id: int(), areas: listOf(string()) });
const EXTENSION = record({ id: int(), kind: string({ description: 'plugin, module or gateway.' }), name: string(), version: string() });
const FROM_SERVICES = record({ invoice_id: int(), client_id: int(), currency: string(), total: string({ format: 'money' }), date_due: timestamp(), service_ids: listOf(int()) });
const RENEWED = record({ service_id: int(), client_id: int(), invoice_id: int(), date_renews: timestamp({ description: 'The renew date after this renewal.' }) });

/**
 * Every event Tally emits. The reference system's names where it has the event (its plugins
 * subscribe to them), Tally's own otherwise. A payload is a record as the API answers it, so it
 * never holds a secret (no key, password hash or card number: the API answers none of them).
 */
export const EVENT_TYPES: readonly EventType[] = [
  { type: 'Clients.add', origin: 'reference', description: 'A client was added (clients/add, clients/create).', payload: asAnswered('clients/get (without settings)'), shape: CLIENT },
  { type: 'Clients.edit', origin: 'reference', description: 'A client was changed (clients/edit).', payload: asAnswered('clients/get (without settings)'), shape: CLIENT },
  { type: 'Clients.delete', origin: 'reference', description: 'A client was deleted (clients/delete).', payload: removed('client', 'clients/get'), shape: CLIENT },
  { type: 'Contacts.add', origin: 'reference', description: 'A contact was added (contacts/add).', payload: asAnswered('contacts/get'), shape: CONTACT },
  { type: 'Contacts.edit', origin: 'reference', description: 'A contact was changed (contacts/edit).', payload: asAnswered('contacts/get'), shape: CONTACT },
  {
    type: 'Contacts.setPermissions',
    origin: 'tally',
    description: "A contact's client area permissions were replaced (contacts/setPermissions).",
    payload: 'The contact and the areas it now has.',
    shape: CONTACT_PERMISSIONS,
  },
  { type: 'Contacts.delete', origin: 'reference', description: 'A contact was deleted (contacts/delete).', payload: removed('contact', 'contacts/get'), shape: CONTACT },
  { type: 'Invoices.add', origin: 'reference', description: 'An invoice was created (invoices/add).', payload: asAnswered('invoices/get'), shape: INVOICE },
  { type: 'Invoices.edit', origin: 'reference', description: 'An invoice was changed (invoices/edit).', payload: asAnswered('invoices/get'), shape: INVOICE },
  {
    type: 'Invoices.setClosed',
    origin: 'reference',
    description: 'An invoice was paid in full (a payment applied to it, or invoices/setClosed).',
    payload: "The invoice's id, client, currency, total, what is paid and when it closed.",
    shape: INVOICE_CLOSED,
  },
  {
    type: 'Invoices.createFromServices',
    origin: 'reference',
    description: 'An invoice was made from services (invoices/createFromServices, invoices/createRenewalFromService, and each renewal invoice of the billing run).',
    payload: "The invoice's id, client, currency, total and due date, and the services it bills (invoices/get answers the rest).",
    shape: FROM_SERVICES,
  },
  { type: 'Transactions.add', origin: 'reference', description: 'A payment was recorded (transactions/add).', payload: asAnswered('transactions/get'), shape: TRANSACTION },
  { type: 'Transactions.edit', origin: 'reference', description: 'A payment was changed (transactions/edit).', payload: asAnswered('transactions/get'), shape: TRANSACTION },
  { type: 'Transactions.apply', origin: 'reference', description: "A payment's credit was applied to invoices (transactions/apply).", payload: asAnswered('transactions/get'), shape: TRANSACTION },
  { type: 'Services.add', origin: 'reference', description: 'A service was added (services/add).', payload: asAnswered('services/get'), shape: SERVICE },
  { type: 'Services.edit', origin: 'reference', description: 'A service was changed (services/edit).', payload: asAnswered('services/get'), shape: SERVICE },
  { type: 'Services.cancel', origin: 'reference', description: 'A service was canceled, or its cancellation scheduled (services/cancel).', payload: asAnswered('services/get'), shape: SERVICE },
  {
    type: 'Services.suspend',
    origin: 'reference',
    description: 'A service was suspended (services/suspend, or the billing run for an overdue invoice).',
    payload: asAnswered('services/get'),
    shape: SERVICE,
  },
  {
    type: 'Services.unsuspend',
    origin: 'reference',
    description: 'A service was unsuspended (services/unsuspend, or the billing run once its invoice is paid).',
    payload: asAnswered('services/get'),
    shape: SERVICE,
  },
  { type: 'Packages.add', origin: 'reference', description: 'A package was added (packages/add).', payload: asAnswered('packages/get'), shape: PACKAGE },
  { type: 'Packages.edit', origin: 'reference', description: 'A package was changed (packages/edit).', payload: asAnswered('packages/get'), shape: PACKAGE },
  { type: 'Packages.delete', origin: 'reference', description: 'A package was deleted (packages/delete).', payload: removed('package', 'packages/get'), shape: PACKAGE },
  {
    type: 'Users.login',
    origin: 'reference',
    description: "A user's credentials were accepted (users/auth answered true).",
    payload: "The user's id and username, and the kind of login asked for.",
    shape: LOGIN,
  },
  {
    type: 'Services.renew',
    origin: 'tally',
    description: 'The billing run renewed a service: its renew date moved on and its renewal invoice was made.',
    payload: 'The service, its client, the renewal invoice and the new renew date.',
    shape: RENEWED,
  },
  {
    type: 'Payments.refused',
    origin: 'tally',
    description: 'A payment was recorded as declined or failed (transactions/add with status declined or error; Transactions.add is emitted too).',
    payload: asAnswered('transactions/get'),
    shape: TRANSACTION,
  },
  {
    type: 'Payments.unapplied',
    origin: 'tally',
    description:
      "A gateway reported a payment that could not be applied to the invoices it names (another client's invoice, another currency, an amount that does not match what is due): it is recorded as the client's credit for staff to look at.",
    payload: 'The notification id, the gateway, the reason and the transaction as transactions/get answers it.',
    shape: UNAPPLIED,
  },
  {
    type: 'Autodebit.failed',
    origin: 'tally',
    description: "The billing run could not collect an invoice from the client's payment account.",
    payload: 'The invoice, its client, the amount, the attempt and why it failed.',
    shape: AUTODEBIT,
  },
  {
    type: 'Credentials.created',
    origin: 'tally',
    description: 'An API credential was created (api_keys/add). The key itself is never in an event.',
    payload: asAnswered('api_keys/get (never the key)'),
    shape: API_KEY,
  },
  { type: 'Credentials.revoked', origin: 'tally', description: 'An API credential was deleted (api_keys/delete).', payload: removed('credential', 'api_keys/get'), shape: API_KEY },
  {
    type: 'Extensions.installed',
    origin: 'tally',
    description: 'A plugin, module or gateway was installed for the company (plugin_manager/add, module_manager/add, gateway_manager/add).',
    payload: "The installed extension's id, kind, name and version.",
    shape: EXTENSION,
  },
  {
    type: 'Extensions.uninstalled',
    origin: 'tally',
    description: 'A plugin, module or gateway was uninstalled for the company.',
    payload: "The extension's id, kind, name and version.",
    shape: EXTENSION,
  },
];

const BY_TYPE = new Map(EVENT_TYPES.map((t) => [t.type as string, t]));

// Every name an event can be emitted under is described here, and nothing else is.
const undescribed = EVENT_NAMES.filter((name) => !BY_TYPE.has(name));
if (undescribed.length || BY_TYPE.size !== EVENT_NAMES.length) throw new Error(`The event catalogue and EVENT_NAMES differ: ${undescribed.join(', ') || 'duplicate or extra entries'}`);

/** The catalogue's entry for `type`; undefined for a name it does not hold. */
export function eventType(type: string): EventType | undefined {
  return BY_TYPE.get(type);
}
