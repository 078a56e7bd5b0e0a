/**
 * Tally's SQLite connections run with busy_timeout 0: better-sqlite3 is synchronous, so SQLite's
 * own wait for a lock held by another process would stop the whole event loop (every call,
 * /health, the admin area) for as long as the lock is held. Instead a statement refused with
 * SQLITE_BUSY is tried again after a short, growing, random pause (`pause` lets the caller hand
 * its connection to others meanwhile). Past `busyMs` the SQLITE_BUSY stands, and the call
 * answers 503.
 */
export async function retryWhileBusy<T>(work: () => Promise<T>, busyMs: number, pause = sleep): Promise<T> {
  const started = Date.now();
  for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
    try {
      return await work();
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() - started + wait > busyMs) throw error;
    }
    await pause(wait * (0.5 + Math.random()));
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
