import cluster from 'node:cluster';
import { loadExtensions } from '../extensions/load-extensions';
import { createLogger } from '../logger';
import { serve } from '../server';
import { banner, shownHost } from './banner';
import { runPrimary } from './cluster-primary';
import { openInstallation } from './open-installation';

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
  const workers = wholeNumber(options.workers ?? process.env.TALLY_WORKERS ?? '1', 1, 64, '--workers (TALLY_WORKERS)');
  const port = wholeNumber(options.port ?? process.env.PORT ?? '8080', 0, 65535, 'PORT');
  const host = options.host ?? process.env.HOST;
  const installation = await openInstallation();
  if (workers > 1 && cluster.isPrimary) {
    // The database is migrated and set up once, here, before the host processes start.
    process.stdout.write(await banner(installation, `http://${shownHost(host)}:${port}`, workers));
    await installation.close();
    return runPrimary(workers, logger);
  }
  // Extensions run in worker threads of this process; they stop when the installation closes.
  await loadExtensions(installation, { logger });
  const server = await serve({ installation, port, host, logger }).catch(async (error) => {
    await installation.close();
    throw error;
  });
  if (cluster.isPrimary) process.stdout.write(await banner(installation, server.url, 1));
  return new Promise<number>((resolve) => {
    const stop = (signal: string) => {
      logger.info({ signal, pid: process.pid }, 'shutting down: finishing in-flight calls');
      server.close().then(
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

function wholeNumber(text: string, min: number, max: number, name: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < min || value > max) throw new Error(`${name} must be a whole number from ${min} to ${max}, not "${text}".`);
  return value;
}
