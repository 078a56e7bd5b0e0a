import { EventConsumer } from './event-consumers';

/**
 * The consumers (other than webhook endpoints) an installation delivers events to. The composition
 * root (host/assemble-installation.ts) makes one per installation, provides it in the container and
 * adds the plugin consumer once the extensions are loaded; the delivery worker fans out to what it
 * holds.
 */
export class EventConsumers {
  private readonly consumers: EventConsumer[] = [];

  get list(): readonly EventConsumer[] {
    return this.consumers;
  }

  add(consumer: EventConsumer): void {
    if (consumer.kind === 'webhook') throw new Error("The kind webhook is the outbox's own");
    if (this.consumers.some((c) => c.kind === consumer.kind)) throw new Error(`An event consumer of kind ${consumer.kind} is already registered`);
    this.consumers.push(consumer);
  }
}
