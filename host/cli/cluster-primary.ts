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

  // One rolling restart at a time: two at once would each fork a replacement for the same process
  // and then wait for its exit, which only one of them sees, so processes multiplied and the other
  // restart never finished. A SIGHUP during a restart asks for one more round after it (code
  // deployed meanwhile may have reached only some of the replacements).
  let restarting: Promise<void> | null = null;
  let again = false;
  process.on('SIGHUP', () => {
    if (stopping) return;
    if (restarting) {
      again = true;
      return;
    }
    restarting = (async () => {
      do {
        again = false;
        await rollingRestart(logger, fork, () => stopping);
      } while (again && !stopping);
    })()
      .catch((error) => logger.error({ err: error }, 'rolling restart failed'))
      .finally(() => {
        restarting = null;
      });
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

async function rollingRestart(logger: Logger, fork: () => Worker, stopping: () => boolean): Promise<void> {
  const current = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
  logger.info({ workers: current.length }, 'rolling restart');
  for (const old of current) {
    // A process that died meanwhile has had its replacement from the exit handler already; one
    // from here too would be a process too many, and its exit would never come.
    if (stopping() || old.isDead()) continue;
    // Retiring from here on: should it die before its replacement listens, the replacement stands
    // for it, and the exit handler must not start another.
    const retiring = old as Worker & { retiring?: boolean };
    retiring.retiring = true;
    // Until it listens, the replacement's death is this loop's to answer, not the exit handler's.
    const replacement = fork() as Worker & { retiring?: boolean };
    replacement.retiring = true;
    try {
      await listening(replacement);
      replacement.retiring = false;
    } catch (error) {
      // The old process keeps serving; if it died meanwhile, it still needs a successor.
      retiring.retiring = false;
      if (old.isDead() && !stopping()) fork();
      throw error;
    }
    if (old.isDead()) continue;
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
