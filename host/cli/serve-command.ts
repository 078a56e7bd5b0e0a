import cluster from 'node:cluster';
import { AutomationScheduler } from '../../core/automation/scheduler';
import { ExtensionTaskScheduler } from '../../core/automation/extension-task-scheduler';
import { Installation } from '../../core/installation';
import { config, parseSetting, SETTINGS } from '../../core/config';
import { isPostgres } from '../../core/db/is-postgres';
import { createLogger, Logger } from '../logger';
import { serve } from '../server';
import { banner, BannerOptions, shownHost } from './banner';
import { runPrimary } from './cluster-primary';
import { openInstallation } from './open-installation';
import { startDeliveries } from './event-deliveries';

interface ServeOptions {
  port?: string;
  host?: string;
  workers?: string;
}

/**
 * Serves the API until SIGTERM/SIGINT, then finishes in-flight calls before exiting. With
 * `--workers N` (or TALLY_WORKERS) this process becomes the primary of N host processes.
 */
export async function serveCommand(options: ServeOptions): Promise<number> {
  const logger = createLogger();
  const workers = options.workers === undefined ? config().workers : (parseSetting('TALLY_WORKERS', options.workers) as number);
  const port = options.port === undefined ? config().port : (parseSetting('PORT', options.port) as number);
  const host = options.host ?? config().host;
  const primaryOfCluster = workers > 1 && cluster.isPrimary;
  // Extensions run in worker threads of this process; they stop when the installation closes. A
  // cluster's primary serves nothing, but runs the billing run's modules and gateways and, on
  // SQLite, delivers events to plugins' handlers: it loads them too.
  const installation = await openInstallation({ extensions: { logger } });
  if (primaryOfCluster) {
    // The database is migrated and set up once, here, before the host processes start.
    process.stdout.write(await banner(installation, `http://${shownHost(host)}:${port}`, workers, databaseUrls()));
    // The primary keeps the installation only to run the billing scheduler: one process runs it.
    const stopScheduler = await startScheduler(installation, logger);
    const stopDeliveries = startDeliveries(installation, logger);
    const status = await runPrimary(workers, logger);
    await stopDeliveries();
    await stopScheduler();
    await installation.close();
    return status;
  }
  const server = await serve({ installation, port, host, logger }).catch(async (error) => {
    await installation.close();
    throw error;
  });
  if (cluster.isPrimary) process.stdout.write(await banner(installation, server.url, 1, databaseUrls()));
  // Host processes of a cluster never run it: their primary does.
  const stopScheduler = cluster.isPrimary ? await startScheduler(installation, logger) : async () => undefined;
  // On PostgreSQL every host process shares the outbox (SKIP LOCKED); on SQLite only the primary delivers.
  const stopDeliveries = cluster.isPrimary || isPostgres(installation.db) ? startDeliveries(installation, logger) : async () => undefined;
  return new Promise<number>((resolve) => {
    const stop = (signal: string) => {
      logger.info({ signal, pid: process.pid }, 'shutting down: finishing in-flight calls');
      Promise.all([stopScheduler(), stopDeliveries(), server.close()]).then(
        () => {
          // A cluster worker's channel to its primary would keep it alive: let go of it.
          cluster.worker?.disconnect();
          resolve(0);
        },
        (error) => {
          logger.error({ err: error }, 'shutdown failed');
          resolve(1);
        },
      );
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}

/**
 * Starts the billing scheduler (TALLY_AUTOMATION_MINUTES) and the extension tasks' one
 * (TALLY_EXTENSION_TASK_SECONDS); 0 turns either off. Answers how to stop them. Modules, gateways
 * and extension tasks run in the extension runtime, loaded with the installation.
 */
async function startScheduler(installation: Installation, logger: Logger): Promise<() => Promise<void>> {
  const minutes = config().automationMinutes;
  const taskSeconds = config().extensionTaskSeconds;
  if (minutes === 0 && taskSeconds === 0) return async () => undefined;
  const tasks = new ExtensionTaskScheduler(installation, taskSeconds * 1000, {
    ran: (reports) => {
      if (reports.length) logger.info({ tasks: reports.map((r) => ({ company: r.companyId, task: r.task, failed: r.failed, message: r.messages[0] })) }, 'extension tasks run');
    },
    failed: (error) => logger.error({ err: error }, 'extension tasks failed'),
  });
  tasks.start();
  if (minutes === 0) return () => tasks.stop();
  const scheduler = new AutomationScheduler(installation, minutes * 60_000, {
    ran: (reports) => {
      const done = reports.filter((r) => r.processed || r.failed);
      if (done.length) logger.info({ tasks: done.map((r) => ({ company: r.companyId, task: r.task, processed: r.processed, failed: r.failed })) }, 'billing run');
    },
    failed: (error) => logger.error({ err: error }, 'billing run failed'),
  });
  scheduler.start();
  return async () => {
    await Promise.all([scheduler.stop(), tasks.stop()]);
  };
}

function databaseUrls(): BannerOptions {
  const fallback = SETTINGS.find((s) => s.variable === 'DATABASE_URL')!.defaultValue() as string;
  return { databaseUrl: config().databaseUrl, defaultDatabaseUrl: fallback };
}
