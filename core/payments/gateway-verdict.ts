/** Statuses a gateway may report for a payment; `refunded` takes back what it paid. */
export const PAYMENT_STATUSES = ['approved', 'pending', 'declined', 'void', 'error', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export interface InvoicePayment {
  readonly invoice_id: number;
  /** null: the invoice's whole amount due. */
  readonly amount: string | null;
}

export interface ReportedPayment {
  readonly client_id: number;
  readonly amount: string;
  readonly currency: string;
  readonly status: PaymentStatus;
  readonly transaction_id: string;
  readonly parent_transaction_id: string | null;
  readonly invoices: readonly InvoicePayment[];
}

/** What a gateway's `validate` concluded about one notification. */
export type Verdict = { kind: 'refused'; reason: string } | { kind: 'ignored'; reason: string } | { kind: 'payment'; payment: ReportedPayment };

/** A `validate` answer that is none of the contract's shapes: the inbox records it as a failure of the gateway. */
export class NonsenseAnswer extends Error {}

const AMOUNT = /^\d{1,12}(?:\.\d{1,4})?$/;
const REASON_MAX = 500;

/**
 * Reads what a gateway's `validate` answered. The gateway is extension code: its answer is checked
 * whole before anything is recorded, and anything that is not `{ genuine: false, reason }`,
 * `{ ignored: reason }` or a payment (client_id, amount, currency, status, transaction_id, optional
 * parent_transaction_id and invoices) is a NonsenseAnswer naming what is wrong.
 */
export function readVerdict(answer: unknown): Verdict {
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) throw new NonsenseAnswer('validate answered something other than a record');
  const a = answer as Record<string, unknown>;
  if (a.genuine === false) return { kind: 'refused', reason: reasonText(a.reason, 'not genuine') };
  if (a.ignored !== undefined) return { kind: 'ignored', reason: reasonText(a.ignored, 'ignored') };
  const clientId = positiveInteger(a.client_id);
  if (clientId === null) throw new NonsenseAnswer('validate answered a payment without a client_id');
  const amount = decimal(a.amount);
  if (amount === null) throw new NonsenseAnswer('validate answered a payment whose amount is not a decimal of at most 12 digits and 4 places');
  if (typeof a.currency !== 'string' || !/^[A-Za-z]{3}$/.test(a.currency)) throw new NonsenseAnswer('validate answered a payment without a three-letter currency');
  if (!PAYMENT_STATUSES.includes(a.status as PaymentStatus)) throw new NonsenseAnswer(`validate answered a status other than ${PAYMENT_STATUSES.join(', ')}`);
  const id = referenceText(a.transaction_id);
  if (id === null) throw new NonsenseAnswer("validate answered a payment without the gateway's transaction_id (text of at most 255 characters)");
  const parent = a.parent_transaction_id === undefined || a.parent_transaction_id === null ? null : referenceText(a.parent_transaction_id);
  if (parent === null && a.parent_transaction_id !== undefined && a.parent_transaction_id !== null)
    throw new NonsenseAnswer('validate answered a parent_transaction_id that is not text of at most 255 characters');
  return {
    kind: 'payment',
    payment: {
      client_id: clientId,
      amount,
      currency: a.currency.toUpperCase(),
      status: a.status as PaymentStatus,
      transaction_id: id,
      parent_transaction_id: parent,
      invoices: invoiceList(a.invoices),
    },
  };
}

function invoiceList(value: unknown): InvoicePayment[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > 100) throw new NonsenseAnswer('validate answered invoices that are not a list of at most 100');
  return value.map((item) => {
    const i = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
    const invoiceId = positiveInteger(i.invoice_id);
    if (invoiceId === null) throw new NonsenseAnswer('validate answered an invoice without an invoice_id');
    if (i.amount === undefined || i.amount === null) return { invoice_id: invoiceId, amount: null };
    const amount = decimal(i.amount);
    if (amount === null) throw new NonsenseAnswer('validate answered an invoice amount that is not a decimal');
    return { invoice_id: invoiceId, amount };
  });
}

function positiveInteger(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647 ? n : null;
}

function decimal(value: unknown): string | null {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value.trim() : '';
  return AMOUNT.test(text) ? text : null;
}

function referenceText(value: unknown): string | null {
  const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : typeof value === 'string' ? value.trim() : '';
  return text !== '' && text.length <= 255 ? text : null;
}

function reasonText(value: unknown, fallback: string): string {
  return typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, REASON_MAX) : fallback;
}
