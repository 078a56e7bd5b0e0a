import { EventConsumer } from './event-consumers';

/**
 * The consumers (other than webhook endpoints) an installation delivers events to: the host
 * registers the plugin consumer here, and the delivery worker fans out to whatever is registered.
 * Kept per installation object, so core/installation.ts needs no field for it.
 */
const registries = new WeakMap<object, EventConsumer[]>();

export function eventConsumers(installation: object): EventConsumer[] {
  let list = registries.get(installation);
  if (!list) registries.set(installation, (list = []));
  return list;
}

export function addEventConsumer(installation: object, consumer: EventConsumer): void {
  const list = eventConsumers(installation);
  if (list.some((c) => c.kind === consumer.kind)) throw new Error(`An event consumer of kind ${consumer.kind} is already registered`);
  if (consumer.kind === 'webhook') throw new Error('The kind webhook is the outbox\'s own');
  list.push(consumer);
}
