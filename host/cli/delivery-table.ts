import { textTable } from './text-table';

interface Delivery {
  id: number;
  event_id: string;
  event_type: string;
  kind: string;
  target: string;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  last_status: number | null;
  last_error: string | null;
  date_added: string;
}

/** Deliveries as `tally webhooks deliveries|dead` and `tally events deliveries` list them; `empty` when there are none. */
export function deliveryTable(rows: readonly Delivery[], empty: string): string {
  if (!rows.length) return empty;
  const to = (d: Delivery) => (d.kind === 'webhook' ? `webhook ${d.target}` : `${d.kind} ${d.target}`);
  const last = (d: Delivery) => (d.last_status !== null ? d.last_status : (d.last_error ?? '-').slice(0, 60));
  return textTable(
    ['id', 'event', 'type', 'to', 'status', 'attempts', 'last answer', 'next attempt', 'added'],
    rows.map((d) => [d.id, d.event_id, d.event_type, to(d), d.status, d.attempts, last(d), d.next_attempt_at ?? '-', d.date_added]),
  );
}
