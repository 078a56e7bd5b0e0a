/**
 * Notifications a sender address may deliver per window, counted in this process: processors send
 * a few a second at most, and a flood from one address should not occupy the sandboxes and the
 * database for every company. Windows are fixed and forgotten once over.
 */
export class CallbackRate {
  private readonly counts = new Map<string, { windowStart: number; count: number }>();

  constructor(
    readonly perWindow: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one notification from `address`; false when it is over the limit. */
  take(address: string): boolean {
    const now = this.now();
    if (this.counts.size > 10_000) for (const [key, entry] of this.counts) if (now - entry.windowStart >= this.windowMs) this.counts.delete(key);
    const entry = this.counts.get(address);
    if (!entry || now - entry.windowStart >= this.windowMs) {
      this.counts.set(address, { windowStart: now, count: 1 });
      return true;
    }
    entry.count += 1;
    return entry.count <= this.perWindow;
  }
}
