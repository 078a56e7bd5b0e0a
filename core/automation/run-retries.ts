import { withRetries } from '../db/retryable';

/** How long, in all, one of the run's writes waits for other processes' hold on a SQLite file. */
const PATIENCE_MS = 10 * 60_000;

/**
 * Runs one of the billing run's writes (a batch, a lease, its log) until it gets through: again when
 * PostgreSQL says another transaction won (withRetries), and on SQLite again while another process
 * holds the file's write lock. The driver gives up on that lock after TALLY_SQLITE_BUSY_MS so that
 * an API call answers 503 rather than hang; a run started beside another (cron, the scheduler) has
 * nobody waiting for an answer and waits its turn instead of failing half-way.
 */
export async function untilWritten<T>(work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      return await withRetries(work, 8);
    } catch (error) {
      if (!heldByAnotherProcess(error) || Date.now() - started > PATIENCE_MS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40));
    }
  }
}

/** SQLITE_BUSY, as the driver throws it or as the 503 it became (guarded-driver.ts keeps the cause). */
function heldByAnotherProcess(error: unknown): boolean {
  const cause = (error as { cause?: unknown } | null)?.cause ?? error;
  const code = (cause as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}
