/** One event as the outbox keeps it: the same id on every delivery attempt. */
export interface OutboxEvent {
  readonly id: string;
  readonly type: string;
  readonly companyId: number;
  /** UTC, YYYY-MM-DD hh:mm:ss */
  readonly occurredAt: string;
  readonly payload: unknown;
}

/** Something other than a webhook endpoint that events are delivered to (plugin handlers). */
export interface EventConsumer {
  /** A short name stored with each delivery ('plugin'). */
  readonly kind: string;
  /** Who of this kind receives the event (the extensions subscribed to its type and enabled for its company). */
  subscribers(event: OutboxEvent): Promise<string[]>;
  /** Delivers it to one subscriber; throwing means "retry later" (the outbox retries with backoff, then parks). */
  deliver(subscriber: string, event: OutboxEvent): Promise<void>;
}
