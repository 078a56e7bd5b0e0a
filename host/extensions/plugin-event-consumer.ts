import { EventConsumer, OutboxEvent } from '../../core/events/event-consumers';
import { HostCatalog } from './host-catalog';

/** The caller name a handler's work is recorded under (as `automation` is for tasks). */
export const EVENTS_CALLER = 'events';

/**
 * Plugin handlers as the outbox sees them: the subscribers of an event are the extensions whose
 * manifest lists its type and that its company has installed and enabled; delivering runs the
 * handler in the extension's sandbox as that company, after the change committed. A handler that
 * throws or times out makes `deliver` throw: the outbox retries it later, then parks it. The
 * change itself is long committed, so a handler can neither undo nor hold it.
 */
export class PluginEventConsumer implements EventConsumer {
  readonly kind = 'plugin';

  constructor(private readonly catalog: HostCatalog) {}

  subscribers(event: OutboxEvent): Promise<string[]> {
    return this.catalog.subscribersOf(event.type, event.companyId);
  }

  async deliver(subscriber: string, event: OutboxEvent): Promise<void> {
    // Disabled or uninstalled since: no longer subscribed, so delivered to nobody (not retried).
    if (!(await this.catalog.subscribersOf(event.type, event.companyId)).includes(subscriber)) return;
    const handled = { id: event.id, type: event.type, companyId: event.companyId, occurredAt: event.occurredAt, payload: event.payload };
    await this.catalog.runUnattended(subscriber, event.companyId, { kind: 'event', event: handled }, EVENTS_CALLER);
  }
}
