/**
 * How many committed changes to webhook endpoints (edit, secret rotation, deletion) this process
 * has made. The delivery worker keeps what a round read of endpoints for a moment to start
 * deliveries between rounds (delivery-worker.ts, READY_FRESH_MS); it drops that read as soon as
 * this number moves, so a secret whose overlap was ended, or an endpoint disabled, in this process
 * is never used again. A change made by another process reaches this one's worker at its next read.
 *
 * Process-wide rather than per installation: a bump only makes a worker read again, so sharing it
 * between installations in one process (specs) costs a read, never a stale answer.
 */
let changes = 0;

export const endpointChanges = {
  /** Called after the change committed: a read made before the commit would keep the old row. */
  bump(): void {
    changes++;
  },
  get count(): number {
    return changes;
  },
};
