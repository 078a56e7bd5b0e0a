/**
 * The names of every event Tally emits: the reference system's where it has the event (its plugins
 * subscribe to them), Tally's own otherwise. Emitting code and subscriptions (webhook endpoints,
 * plugins' manifests) are checked against this list; what each event means and carries is the
 * catalogue's (core/models/events/catalogue.ts), which must describe every name here.
 */
export const EVENT_NAMES = [
  'Clients.add',
  'Clients.edit',
  'Clients.delete',
  'Contacts.add',
  'Contacts.edit',
  'Contacts.delete',
  'Contacts.setPermissions',
  'Invoices.add',
  'Invoices.edit',
  'Invoices.setClosed',
  'Invoices.createFromServices',
  'Transactions.add',
  'Transactions.edit',
  'Transactions.apply',
  'Services.add',
  'Services.edit',
  'Services.cancel',
  'Services.suspend',
  'Services.unsuspend',
  'Packages.add',
  'Packages.edit',
  'Packages.delete',
  'Users.login',
  'Services.renew',
  'Payments.refused',
  'Payments.unapplied',
  'Autodebit.failed',
  'Credentials.created',
  'Credentials.revoked',
  'Extensions.installed',
  'Extensions.uninstalled',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

const KNOWN: ReadonlySet<string> = new Set(EVENT_NAMES);

/** Whether `name` is an event Tally emits. */
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && KNOWN.has(name);
}
