/**
 * Rung after every committed write (the composition root's after-commit hook), so a delivery worker
 * of this process looks at the outbox at once instead of at its next poll. A ring with nothing new
 * costs the worker one look; rings while it is looking fold into one more look.
 */
export class OutboxBell {
  private readonly listeners = new Set<() => void>();

  readonly ring = (): void => {
    for (const listener of this.listeners) listener();
  };

  /** Calls `listener` on every ring until the answered function is called. */
  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
