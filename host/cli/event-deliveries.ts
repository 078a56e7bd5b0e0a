import { DeliveryWorker } from '../../core/events/delivery-worker';
import { EventConsumers } from '../../core/events/consumer-registry';
import { OutboxBell } from '../../core/events/outbox-bell';
import { MailWorker } from '../../core/delivery/mail-worker';
import { Installation } from '../../core/installation';
import { Logger } from '../logger';

/**
 * Starts delivering the outboxes: events (webhooks, and the consumers registered on the
 * installation, such as plugin handlers) and mail (core/delivery/mail-worker.ts); answers how to
 * stop both. The workers look every quarter or half second, and at once when the installation's
 * OutboxBell rings after a commit. Errors (a database restarting) are logged at most once a minute
 * per worker: they keep trying, and nothing they have not recorded is lost.
 */
export function startDeliveries(installation: Installation, logger: Logger): () => Promise<void> {
  const bell = installation.container.resolve(OutboxBell);
  const worker = new DeliveryWorker(installation, installation.container.resolve(EventConsumers).list, { bell, onError: throttled(logger, 'event delivery: will try again') });
  const mail = new MailWorker(installation, { bell, onError: throttled(logger, 'mail delivery: will try again') });
  worker.start();
  mail.start();
  return async () => {
    await Promise.all([worker.stop(), mail.stop()]);
  };
}

function throttled(logger: Logger, message: string): (error: unknown) => void {
  let lastLogged = 0;
  return (error) => {
    if (Date.now() - lastLogged < 60_000) return;
    lastLogged = Date.now();
    logger.warn({ err: error }, message);
  };
}
