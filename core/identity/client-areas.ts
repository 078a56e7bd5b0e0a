/**
 * The parts of the client area a contact may be given (the reference's contact permissions, by
 * its area names). A client signed in as itself has them all; a contact has those listed for it in
 * contact_permissions, and sees nothing of the others.
 */
export const CLIENT_AREAS: Readonly<Record<string, string>> = {
  client_invoices: 'Invoices',
  client_services: 'Services',
  client_contacts: 'Contacts',
  client_accounts: 'Payment accounts',
};

export type ClientArea = 'client_invoices' | 'client_services' | 'client_contacts' | 'client_accounts';

export const isClientArea = (area: unknown): area is ClientArea => typeof area === 'string' && Object.prototype.hasOwnProperty.call(CLIENT_AREAS, area);
