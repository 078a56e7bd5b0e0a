import { AdminRequest, callAs } from '../admin-request';
import { wholeNumberOr } from '../components/list-controls';

/** A transaction as transactions/get answers it (getList answers the same without applied, refunds and credit). */
export interface TransactionRecord {
  readonly id: number;
  readonly client_id: number;
  readonly amount: string;
  readonly currency: string;
  readonly type: string;
  readonly gateway: string | null;
  readonly transaction_id: string | null;
  readonly message: string | null;
  readonly status: string;
  readonly refunded: string;
  readonly date_added: string;
  readonly credit?: string;
  readonly applied?: ReadonlyArray<{ invoice_id: number; amount: string; date_added: string }>;
  readonly refunds?: ReadonlyArray<{ id: number; amount: string; reference: string | null; date_added: string }>;
}

export const TRANSACTION_STATUSES = ['all', 'approved', 'declined', 'void', 'error', 'pending', 'refunded', 'returned'] as const;
export const TRANSACTION_TYPES = { cc: 'Card', ach: 'Bank debit (ACH)', other: 'Other' } as const;

/** The transaction of the company in view, or null (unknown, another company's, not a number). */
export async function findTransaction(request: AdminRequest, id: unknown): Promise<TransactionRecord | null> {
  const transactionId = wholeNumberOr(id, 0);
  if (!transactionId) return null;
  const found = await callAs(request, 'transactions', 'get', { transaction_id: transactionId });
  return found ? (found as TransactionRecord) : null;
}
