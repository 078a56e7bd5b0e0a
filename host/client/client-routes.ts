import { ClientArea } from '../../core/identity/client-areas';
import { ClientPageHandler } from './client-request';
import { addContact, editContact, showContact, showContacts } from './pages/contacts-page';
import { saveDetails, showDetails } from './pages/details-page';
import { payInvoice, payInvoiceWithNewCard, sendInvoicePdf, showInvoice, showInvoices } from './pages/invoices-page';
import { cancelService, keepService, showServices } from './pages/services-page';
import { paySeveral, payOffsite, showCheckout, showReturn } from './pages/checkout-page';
import { addAccount, chooseAutodebit, removeAccount, showAccounts } from './pages/accounts-page';

export interface ClientRoute {
  readonly handler: ClientPageHandler;
  /** The area a contact needs for the page (navigation and a clear 403); the call path checks every call regardless. */
  readonly area: ClientArea | null;
}

/**
 * Every page of the client area behind a session, by `<METHOD> <path>`. Sign-in, sign-out, the pay
 * link and the stylesheet are answered before this table (client-area.ts); every POST here has
 * passed the CSRF check before its handler runs.
 */
export const CLIENT_ROUTES: ReadonlyMap<string, ClientRoute> = new Map([
  ['GET /client/invoices', { handler: showInvoices, area: 'client_invoices' }],
  ['GET /client/invoices/view', { handler: showInvoice, area: 'client_invoices' }],
  ['POST /client/invoices/pay', { handler: payInvoice, area: 'client_invoices' }],
  ['POST /client/invoices/pay-card', { handler: payInvoiceWithNewCard, area: 'client_invoices' }],
  ['GET /client/invoices/pdf', { handler: sendInvoicePdf, area: 'client_invoices' }],
  ['GET /client/invoices/checkout', { handler: showCheckout, area: 'client_invoices' }],
  ['POST /client/invoices/pay-several', { handler: paySeveral, area: 'client_invoices' }],
  ['POST /client/invoices/pay-offsite', { handler: payOffsite, area: 'client_invoices' }],
  ['GET /client/payments/return', { handler: showReturn, area: 'client_invoices' }],
  ['GET /client/accounts', { handler: (r) => showAccounts(r), area: 'client_accounts' }],
  ['POST /client/accounts/add', { handler: addAccount, area: 'client_accounts' }],
  ['POST /client/accounts/remove', { handler: removeAccount, area: 'client_accounts' }],
  ['POST /client/accounts/autodebit', { handler: chooseAutodebit, area: 'client_accounts' }],
  ['GET /client/services', { handler: (r) => showServices(r), area: 'client_services' }],
  ['POST /client/services/cancel', { handler: cancelService, area: 'client_services' }],
  ['POST /client/services/keep', { handler: keepService, area: 'client_services' }],
  ['GET /client/contacts', { handler: (r) => showContacts(r), area: 'client_contacts' }],
  ['POST /client/contacts/add', { handler: addContact, area: 'client_contacts' }],
  ['GET /client/contacts/edit', { handler: (r) => showContact(r), area: 'client_contacts' }],
  ['POST /client/contacts/edit', { handler: editContact, area: 'client_contacts' }],
  ['GET /client/details', { handler: (r) => showDetails(r), area: null }],
  ['POST /client/details', { handler: saveDetails, area: null }],
] as Array<[string, ClientRoute]>);

/** `/client/x/` is `/client/x`; HEAD is answered as GET. */
export function clientRouteKey(method: string, path: string): string {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return `${method === 'HEAD' ? 'GET' : method} ${trimmed}`;
}
