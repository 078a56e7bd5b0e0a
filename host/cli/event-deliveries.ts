import { DeliveryWorker } from '../../core/events/delivery-worker';
import { eventConsumers } from '../../core/events/consumer-registry';
import { Installation } from '../../core/installation';
import { Logger } from '../logger';

/**
 * Starts delivering the outbox (webhooks, and the consumers registered on the installation, such as
 * plugin handlers); answers how to stop it. The worker looks at the outbox every quarter second, and
 * at once when `wake()` is called after a commit. Errors (a database restarting) are logged at
 * most once a minute: the worker keeps trying, and nothing it has not recorded is lost.
 */
export function startDeliveries(installation: Installation, logger: Logger): () => Promise<void> {
  let lastLogged = 0;
  const worker = new DeliveryWorker(installation, eventConsumers(installation), {
    onError: (error) => {
      if (Date.now() - lastLogged < 60_000) return;
      lastLogged = Date.now();
      logger.warn({ err: error }, 'event delivery: will try again');
    },
  });
  worker.start();
  return () => worker.stop();
}
