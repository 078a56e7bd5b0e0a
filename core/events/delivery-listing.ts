import { formatUtc } from '../kernel/timestamps';
import { EventsTx } from './event-tables';

/** Deliveries of a company with their event's type, as webhooks/getDeliveries and events/getDeliveries list them. */
export function deliveryQuery(db: EventsTx, companyId: number) {
  return db
    .selectFrom('event_deliveries as d')
    .innerJoin('events as e', 'e.id', 'd.event_id')
    .select([
      'd.id',
      'd.event_id',
      'e.type as event_type',
      'd.company_id',
      'd.kind',
      'd.target',
      'd.status',
      'd.attempts',
      'd.next_attempt_at',
      'd.last_status',
      'd.last_error',
      'd.date_added',
      'd.date_done',
    ])
    .where('d.company_id', '=', companyId);
}

type Row = Awaited<ReturnType<ReturnType<typeof deliveryQuery>['executeTakeFirstOrThrow']>>;

export function presentDelivery(row: Row) {
  return {
    ...row,
    id: Number(row.id),
    company_id: Number(row.company_id),
    attempts: Number(row.attempts),
    next_attempt_at: row.status === 'pending' ? formatUtc(new Date(Number(row.next_attempt_at))) : null,
    last_status: row.last_status === null ? null : Number(row.last_status),
  };
}
