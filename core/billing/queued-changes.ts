import { OptionChoice } from './config-options';

/** What a change of pricing does to the service itself, apart from invoicing it (package-change.ts movePricing). */
export interface PricingMove {
  readonly pricingId: number;
  readonly dateRenews: string | null;
  /** Unused time credited to the client (stored decimal), or null. */
  readonly credit: string | null;
  readonly creditCurrency: string;
}

/**
 * A queued change (service_changes.data, as JSON): the move as quoted when it was asked for, and
 * the options to take (null: the service keeps its own). Applied by services/processChange once
 * its invoice is paid; read by the service_changes model.
 */
export interface QueuedChange extends PricingMove {
  readonly options: readonly OptionChoice[] | null;
}

/** A service_changes row as service_changes/get answers it. */
export function presentChange(row: { id: number; service_id: number; invoice_id: number; status: string; data: string; date_added: string; date_status: string }) {
  const data = JSON.parse(row.data) as QueuedChange;
  return {
    id: row.id,
    service_id: row.service_id,
    invoice_id: row.invoice_id,
    status: row.status,
    pricing_id: data.pricingId,
    date_renews: data.dateRenews,
    options: data.options,
    date_added: row.date_added,
    date_status: row.date_status,
  };
}
