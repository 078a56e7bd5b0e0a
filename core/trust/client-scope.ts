import type { Call } from '../call-record';
import { Db } from '../db/schema';
import { ClientReach } from '../kernel/caller';
import { TallyError } from '../kernel/tally-error';
import { ClientArea } from '../identity/client-areas';
import { CONTACT_FIELDS } from '../billing/contact-fields';
import { SETTINGS } from '../settings-catalogue';

type Params = Record<string, unknown>;
type Check = (params: Params, reach: ClientReach, owns: Ownership, companyId: number) => boolean | Promise<boolean>;

interface Rule {
  /** The areas any one of which lets a contact make the call; empty: every signed-in client and contact. */
  readonly areas: readonly ClientArea[];
  /** Only the client signed in as itself, never a contact. */
  readonly clientOnly?: boolean;
  /** Open to a pay link, for its one invoice. */
  readonly payLink?: boolean;
  readonly check: Check;
}

/** The client's own details a client may change: its primary contact's fields, never its status, group or login. */
const DETAIL_FIELDS: ReadonlySet<string> = new Set(CONTACT_FIELDS);

const isId = (value: unknown): boolean => (typeof value === 'number' && Number.isSafeInteger(value)) || (typeof value === 'string' && /^\d{1,15}$/.test(value.trim()));
const sameId = (value: unknown, id: number | undefined): boolean => id !== undefined && isId(value) && Number(value) === id;
const ownClient =
  (name: string): Check =>
  (p, reach) =>
    sameId(p[name], reach.clientId);
const onlyKeys = (value: unknown, allowed: ReadonlySet<string>): boolean => value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).every((key) => allowed.has(key));
/** A pay link reaches its one invoice; a signed-in client any of its own. */
const ownInvoice: Check = (p, reach, owns) => (reach.invoiceId === undefined || sameId(p.invoice_id, reach.invoiceId)) && owns.invoice(p.invoice_id, reach);
/** The invoice lists a client sees: never drafts (staff's work in progress), nor staff's queues. */
const CLIENT_INVOICE_LISTS: ReadonlySet<unknown> = new Set(['open', 'closed', 'active', 'proforma', 'void']);
const clientList: Check = (p, reach) => sameId(p.client_id, reach.clientId) && (p.status === undefined || CLIENT_INVOICE_LISTS.has(p.status));
/** Every invoice a list names is the caller's (a pay link: the list is its one invoice). */
const ownInvoices: Check = async (p, reach, owns) => {
  const ids = Array.isArray(p.invoice_ids) ? p.invoice_ids : null;
  if (!ids || ids.length === 0) return false;
  if (reach.invoiceId !== undefined && !(ids.length === 1 && sameId(ids[0], reach.invoiceId))) return false;
  for (const id of ids) if (!(await owns.invoice(id, reach))) return false;
  return true;
};
const ownAccount =
  (name: string): Check =>
  (p, reach, owns) =>
    owns.account(p[name], reach);
/** What a client may give when it adds a card: the card (handed to the gateway, never kept), the name on it, whether autodebit uses it. */
const CARD_FIELDS: ReadonlySet<string> = new Set(['client_id', 'number', 'expiration', 'security_code', 'token', 'first_name', 'last_name', 'gateway', 'autodebit']);
/** The company settings a client area page reads: what it offers, never a secret or staff's own. */
const CLIENT_READABLE_SETTINGS: ReadonlySet<unknown> = new Set(['clients_cancel_services']);
const all =
  (...checks: Check[]): Check =>
  async (p, reach, owns, companyId) => {
    for (const check of checks) if (!(await check(p, reach, owns, companyId))) return false;
    return true;
  };

/**
 * Every call a client area caller may make, and what its parameters must name. Anything else is
 * refused, whatever the page asked: the client area's reach is this table, not what its pages
 * happen to show.
 */
const RULES: ReadonlyMap<string, Rule> = new Map<string, Rule>([
  ['companies/get', { areas: [], payLink: true, check: (p, _r, _o, companyId) => sameId(p.company_id, companyId) }],
  ['currencies/format', { areas: [], payLink: true, check: () => true }],
  ['clients/get', { areas: [], check: ownClient('client_id') }],
  ['clients/edit', { areas: [], clientOnly: true, check: (p, reach) => sameId(p.client_id, reach.clientId) && onlyKeys(p.vars, DETAIL_FIELDS) }],
  ['invoices/getList', { areas: ['client_invoices'], check: clientList }],
  ['invoices/getListCount', { areas: ['client_invoices'], check: clientList }],
  ['invoices/get', { areas: ['client_invoices'], payLink: true, check: ownInvoice }],
  ['invoices/verifyPayHash', { areas: ['client_invoices'], payLink: true, check: all(ownClient('client_id'), (p, reach) => reach.invoiceId !== undefined && sameId(p.invoice_id, reach.invoiceId)) }],
  ['accounts/getAllCcByClient', { areas: ['client_invoices', 'client_accounts'], payLink: true, check: ownClient('client_id') }],
  ['accounts/getAllAchByClient', { areas: ['client_invoices', 'client_accounts'], payLink: true, check: ownClient('client_id') }],
  ['accounts/chargeInvoice', { areas: ['client_invoices'], payLink: true, check: all(ownInvoice, (p, reach, owns) => owns.account(p.account_id, reach)) }],
  ['invoices/getPdf', { areas: ['client_invoices'], payLink: true, check: ownInvoice }],
  ['accounts/chargeInvoices', { areas: ['client_invoices'], check: all(ownInvoices, ownAccount('account_id')) }],
  ['gateway_payments/getOffsiteGateways', { areas: ['client_invoices'], payLink: true, check: () => true }],
  ['gateway_payments/startOffsite', { areas: ['client_invoices'], payLink: true, check: ownInvoices }],
  // The payment returned from is the processor's to name; completeOffsite records only the caller's client's.
  ['gateway_payments/completeOffsite', { areas: ['client_invoices'], payLink: true, check: () => true }],
  ['accounts/getDebitAccount', { areas: ['client_invoices', 'client_accounts'], check: ownClient('client_id') }],
  ['accounts/addCc', { areas: ['client_accounts'], check: (p, reach) => onlyKeys(p.vars, CARD_FIELDS) && sameId((p.vars as Params).client_id, reach.clientId) }],
  ['gateway_payments/getCardForm', { areas: ['client_accounts'], check: () => true }],
  ['accounts/deleteCc', { areas: ['client_accounts'], check: ownAccount('account_id') }],
  ['accounts/deleteAch', { areas: ['client_accounts'], check: ownAccount('account_id') }],
  [
    'accounts/addDebitAccount',
    { areas: ['client_accounts'], check: (p, reach, owns) => sameId(p.client_id, reach.clientId) && onlyKeys(p.vars, new Set(['account_id'])) && owns.account((p.vars as Params).account_id, reach) },
  ],
  ['accounts/deleteDebitAccount', { areas: ['client_accounts'], check: ownClient('client_id') }],
  ['companies/getSetting', { areas: [], check: (p, _r, _o, companyId) => sameId(p.company_id, companyId) && CLIENT_READABLE_SETTINGS.has(p.key) }],
  [
    'services/cancel',
    {
      areas: ['client_services'],
      // At term end only, and only where the company lets clients cancel: now, or at a date of their choosing, is staff's to do.
      check: async (p, reach, owns, companyId) =>
        onlyKeys(p.vars, new Set(['date_canceled'])) &&
        (p.vars as Params).date_canceled === 'end_of_term' &&
        (await owns.renewingService(p.service_id, reach)) &&
        (await owns.clientsMayCancel(companyId)),
    },
  ],
  [
    'services/unCancel',
    {
      areas: ['client_services'],
      // Taking back a cancellation scheduled at term end, where the company lets clients cancel.
      check: async (p, reach, owns, companyId) =>
        (p.vars === undefined || onlyKeys(p.vars, new Set())) && (await owns.renewingService(p.service_id, reach)) && (await owns.clientsMayCancel(companyId)),
    },
  ],
  ['services/getList', { areas: ['client_services'], check: ownClient('client_id') }],
  ['services/getListCount', { areas: ['client_services'], check: ownClient('client_id') }],
  ['contacts/getAll', { areas: ['client_contacts'], check: ownClient('client_id') }],
  ['contacts/get', { areas: ['client_contacts'], check: (p, reach, owns) => owns.contact(p.contact_id, reach, true) }],
  [
    'contacts/add',
    {
      areas: ['client_contacts'],
      check: (p, reach) => {
        const vars = (p.vars ?? {}) as Params;
        const { client_id: clientId, contact_type: type, ...details } = vars;
        return sameId(clientId, reach.clientId) && (type === undefined || type === 'billing' || type === 'other') && onlyKeys(details, DETAIL_FIELDS);
      },
    },
  ],
  ['contacts/edit', { areas: ['client_contacts'], check: (p, reach, owns) => onlyKeys(p.vars, DETAIL_FIELDS) && owns.contact(p.contact_id, reach, false) }],
  ['contacts/getPermissionOptions', { areas: ['client_contacts'], check: (p, _r, _o, companyId) => p.company_id === undefined || sameId(p.company_id, companyId) }],
  ['contacts/getPermissions', { areas: ['client_contacts'], check: (p, reach, owns) => owns.contact(p.contact_id, reach, true) }],
  ['contacts/setPermissions', { areas: [], clientOnly: true, check: (p, reach, owns) => owns.contact(p.contact_id, reach, false) }],
]);

/** Whether a record named by an id belongs to the caller's client (an invoice: one billed to it, not a draft). */
class Ownership {
  constructor(
    private readonly db: Db,
    private readonly companyId: number,
  ) {}

  async invoice(id: unknown, reach: ClientReach): Promise<boolean> {
    if (!isId(id)) return false;
    const row = await this.db
      .selectFrom('invoices')
      .select('id')
      .where('id', '=', Number(id))
      .where('client_id', '=', reach.clientId)
      .where('company_id', '=', this.companyId)
      .where('status', '<>', 'draft')
      .executeTakeFirst();
    return !!row;
  }

  async account(id: unknown, reach: ClientReach): Promise<boolean> {
    if (!isId(id)) return false;
    const row = await this.db.selectFrom('accounts').select('id').where('id', '=', Number(id)).where('client_id', '=', reach.clientId).where('company_id', '=', this.companyId).executeTakeFirst();
    return !!row;
  }

  /** A service of the client that renews (so has a term end), not yet canceled. */
  async renewingService(id: unknown, reach: ClientReach): Promise<boolean> {
    if (!isId(id)) return false;
    const row = await this.db
      .selectFrom('services')
      .select('id')
      .where('id', '=', Number(id))
      .where('client_id', '=', reach.clientId)
      .where('company_id', '=', this.companyId)
      .where('status', 'in', ['active', 'suspended'])
      .where('date_renews', 'is not', null)
      .executeTakeFirst();
    return !!row;
  }

  /** The company's clients_cancel_services setting (true unless it set false). */
  async clientsMayCancel(companyId: number): Promise<boolean> {
    const row = await this.db.selectFrom('settings').select('value').where('company_id', '=', companyId).where('key', '=', 'clients_cancel_services').executeTakeFirst();
    return (row?.value ?? SETTINGS.clients_cancel_services.default) === 'true';
  }

  /** A contact of the client; its primary contact (the client's own details) only when `primaryToo`. */
  async contact(id: unknown, reach: ClientReach, primaryToo: boolean): Promise<boolean> {
    if (!isId(id)) return false;
    const row = await this.db
      .selectFrom('contacts')
      .innerJoin('clients', 'clients.id', 'contacts.client_id')
      .select('contacts.contact_type')
      .where('contacts.id', '=', Number(id))
      .where('contacts.client_id', '=', reach.clientId)
      .where('clients.company_id', '=', this.companyId)
      .executeTakeFirst();
    return !!row && (primaryToo || row.contact_type !== 'primary');
  }
}

/**
 * The authorise hook that scopes a client area caller (a Caller with `client`): the client signed
 * in as itself, one of its contacts with the areas its permissions grant, or a pay link. Only the
 * calls in RULES pass, each only when its parameters name the caller's own client and records (an
 * id of another client's invoice, contact or account is refused as surely as an unknown one), and
 * a contact only within its areas. Calls the method then makes inside its own call (a gateway
 * charging a card) are the method's, as for any caller. Every other caller passes untouched.
 */
export function clientScope(db: Db): (call: Call) => void | Promise<void> {
  return (call) => {
    const reach = call.caller.client;
    if (!reach || call.request.within) return;
    return check(db, call, reach);
  };
}

async function check(db: Db, call: Call, reach: ClientReach): Promise<void> {
  const rule = RULES.get(`${call.model}/${call.method}`);
  const params = call.request.params;
  if (!rule || typeof params === 'function') throw new TallyError('forbidden');
  if (reach.invoiceId !== undefined ? !rule.payLink : !allowedFor(rule, reach)) throw new TallyError('forbidden');
  if (!(await rule.check(params, reach, new Ownership(db, call.caller.companyId), call.caller.companyId))) throw new TallyError('forbidden');
}

function allowedFor(rule: Rule, reach: ClientReach): boolean {
  if (reach.contactId === null) return true;
  if (rule.clientOnly) return false;
  return rule.areas.length === 0 || rule.areas.some((area) => reach.areas?.includes(area));
}
