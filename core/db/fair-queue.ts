/**
 * Calls waiting for a SQLite connection, served in arrival order. Kysely's own lock wakes every
 * waiter on each release and all but one go back to sleep: with N calls in flight that is N
 * wake-ups per query, which under load cost more than the queries. Here a release hands the
 * connection to the longest waiter: one wake-up per hand-off, and no call starves.
 *
 * A wait is bounded: a query a model sends through the installation's database instead of its
 * call's transaction (`ctx.db`) would otherwise wait for the connection that very transaction
 * holds, forever, stalling every call behind it.
 */
export class FairQueue<T> {
  private readonly waiting: Array<(item: T) => void> = [];

  constructor(
    private readonly waitMs: number,
    private readonly what: string,
  ) {}

  /** Resolves with what the next `handOver` gives, or fails after waitMs. */
  wait(): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const turn = (item: T) => {
        clearTimeout(timer);
        resolve(item);
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(turn), 1);
        reject(new Error(`Waited ${this.waitMs} ms for ${this.what}. A query inside a call must use the call's transaction (ctx.db).`));
      }, this.waitMs);
      this.waiting.push(turn);
    });
  }

  /** Gives `item` to the longest waiter; false when nobody waits (the caller keeps it). */
  handOver(item: T): boolean {
    const next = this.waiting.shift();
    if (!next) return false;
    next(item);
    return true;
  }
}
