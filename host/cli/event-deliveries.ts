import { DeliveryWorker } from '../../core/events/delivery-worker';
import { EventConsumers } from '../../core/events/consumer-registry';
import { OutboxBell } from '../../core/events/outbox-bell';
import { Installation } from '../../core/installation';
import { Logger } from '../logger';

/**
 * Starts delivering the outbox (webhooks, and the consumers registered on the installation, such as
 * plugin handlers); answers how to stop it. The worker looks at the outbox every quarter second, and
 * at once when the installation's OutboxBell rings after a commit. Errors (a database restarting) are logged at
 * most once a minute: the worker keeps trying, and nothing it has not recorded is lost.
 */
export function startDeliveries(installation: Installation, logger: Logger): () => Promise<void> {
  let lastLogged = 0;
  const worker = new DeliveryWorker(installation, installation.container.resolve(EventConsumers).list, {
    bell: installation.container.resolve(OutboxBell),
    onError: (error) => {
      if (Date.now() - lastLogged < 60_000) return;
      lastLogged = Date.now();
      logger.warn({ err: error }, 'event delivery: will try again');
    },
  });
  worker.start();
  return () => worker.stop();
}
