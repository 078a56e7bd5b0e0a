import { CallContext } from '../kernel/call-context';
import { callable } from '../kernel/callable';
import { model } from '../kernel/model';
import { int, string } from '../kernel/parameter';
import { listOf, orFalse } from '../kernel/shape';
import { EVENT_TYPES, eventType } from './events/catalogue';
import { eventsDb } from '../events/event-tables';
import { outboxEvent } from '../events/fan-out';
import { DELIVERY, EVENT, EVENT_TYPE } from './events.fields';
import { deliveryQuery, presentDelivery } from '../events/delivery-listing';
import { pageOffset } from '../billing/values';
import { TallyError } from '../kernel/tally-error';
import { isEventId } from '../events/event-id';

const PAGE_SIZE = 25;

const present = (row: Parameters<typeof outboxEvent>[0]) => {
  const event = outboxEvent(row);
  return { id: event.id, type: event.type, company_id: event.companyId, occurred_at: event.occurredAt, payload: event.payload };
};

/**
 * The event catalogue and the caller's company's own events (docs/events.md). Events are written
 * by the calls that make the changes they describe, in the same transaction; here they are read.
 */
@model('events')
export class Events {
  constructor(private readonly ctx: CallContext) {}

  private get db() {
    return eventsDb(this.ctx.db);
  }

  @callable({ description: 'Every event type Tally emits, with what makes it and what its payload holds.', verb: 'GET', returns: listOf(EVENT_TYPE) })
  async getTypes() {
    return EVENT_TYPES.map(({ type, origin, description, payload }) => ({ type, origin, description, payload }));
  }

  @callable({
    description: "One page (25) of the company's events, newest first, optionally of one type and only those after the event id `after` (ids sort in time order).",
    verb: 'GET',
    params: [string('type', { default: null }), int('page', { default: 1 }), string('after', { default: null })],
    returns: listOf(EVENT),
  })
  async getList(type: string | null, page: number, after: string | null) {
    if (type !== null && !eventType(type)) throw TallyError.invalid({ type: { valid: 'No such event type (see events/getTypes).' } });
    let query = this.db.selectFrom('events').selectAll().where('company_id', '=', this.ctx.companyId);
    if (type !== null) query = query.where('type', '=', type);
    if (after !== null && !isEventId(after)) throw TallyError.invalid({ after: { valid: 'Not an event id: give the id of an event from an earlier page.' } });
    if (after !== null) query = query.where('id', '>', after);
    const rows = await query.orderBy('id', 'desc').limit(PAGE_SIZE).offset(pageOffset(page, PAGE_SIZE)).execute();
    return rows.map(present);
  }

  @callable({ description: 'One event of the company; false when it has none of that id.', verb: 'GET', params: [string('event_id')], returns: orFalse(EVENT) })
  async get(eventId: string) {
    if (!isEventId(eventId)) return false;
    const row = await this.db.selectFrom('events').selectAll().where('company_id', '=', this.ctx.companyId).where('id', '=', eventId).executeTakeFirst();
    return row ? present(row) : false;
  }

  @callable({ description: 'The deliveries of one event of the company (to its webhook endpoints and plugins).', verb: 'GET', params: [string('event_id')], returns: listOf(DELIVERY) })
  async getDeliveries(eventId: string) {
    if (!isEventId(eventId)) return [];
    const rows = await deliveryQuery(this.db, this.ctx.companyId).where('d.event_id', '=', eventId).orderBy('d.id').execute();
    return rows.map(presentDelivery);
  }
}
