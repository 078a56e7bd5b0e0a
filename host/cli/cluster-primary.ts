import cluster, { Worker } from 'node:cluster';
import { Logger } from '../logger';

/**
 * `serve --workers N`: N host processes on one port (node:cluster). The host keeps no state of
 * its own, so the processes are interchangeable. A process that dies is replaced; SIGHUP restarts
 * them one at a time, each replacement listening before its predecessor is asked to finish its
 * in-flight calls, so a rolling restart fails no request; SIGTERM stops them all gracefully.
 */
export async function runPrimary(workers: number, logger: Logger): Promise<number> {
  let stopping = false;
  const crashes: number[] = [];
  const fork = () => cluster.fork({ TALLY_CLUSTER_WORKER: '1' });

  cluster.on('exit', (worker, code, signal) => {
    if (stopping || (worker as Worker & { retiring?: boolean }).retiring) return;
    logger.error({ pid: worker.process.pid, code, signal }, 'host process died: starting a replacement');
    const now = Date.now();
    crashes.push(now);
    while (crashes.length && now - crashes[0] > 60_000) crashes.shift();
    // A process that dies on start would otherwise be replaced in a tight loop.
    setTimeout(fork, crashes.length > workers * 3 ? 5000 : 100);
  });

  const started = Array.from({ length: workers }, fork);
  await Promise.all(started.map(listening));
  logger.info({ workers }, 'all host processes are listening');

  process.on('SIGHUP', () => {
    void rollingRestart(logger).catch((error) => logger.error({ err: error }, 'rolling restart failed'));
  });

  return new Promise<number>((resolve) => {
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, 'stopping every host process');
      const all = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
      let left = all.length;
      if (!left) resolve(0);
      for (const worker of all) {
        worker.once('exit', () => --left === 0 && resolve(0));
        worker.process.kill('SIGTERM');
      }
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}

async function rollingRestart(logger: Logger): Promise<void> {
  const current = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
  logger.info({ workers: current.length }, 'rolling restart');
  for (const old of current) {
    const replacement = cluster.fork({ TALLY_CLUSTER_WORKER: '1' });
    await listening(replacement);
    (old as Worker & { retiring?: boolean }).retiring = true;
    const exited = new Promise((resolve) => old.once('exit', resolve));
    old.process.kill('SIGTERM');
    await exited;
  }
  logger.info('rolling restart done');
}

function listening(worker: Worker): Promise<void> {
  return new Promise((resolve, reject) => {
    worker.once('listening', () => resolve());
    worker.once('exit', (code) => reject(new Error(`A host process exited with code ${code} before listening`)));
  });
}
