import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { OutboxBell } from './outbox-bell';

export interface WorkerLoopOptions {
  /** How long to wait for a wake when a round found nothing (ms). */
  pollMs: number;
  /** Rung after each committed write: the loop then looks at once instead of at its next poll. */
  bell?: OutboxBell;
  /** Told of a round that threw; the loop goes on (the database went away for a moment, say). */
  onError?(error: unknown): void;
}

/** A name for this process's leases on outbox rows, unique among the processes sharing a database. */
export function leaseOwner(): string {
  return `${hostname()}/${process.pid}/${randomBytes(4).toString('hex')}`;
}

/**
 * The loop an outbox worker runs (the event worker's webhooks, the mail worker's messages): a
 * round, again at once while rounds find work, else a wait that ends at the poll or at a wake
 * (the outbox bell after a commit, or the worker itself), whichever comes first. A wake while a
 * round runs is kept, so work committed while the round looked is not left for the next poll.
 */
export class WorkerLoop {
  private running: Promise<void> | null = null;
  private stopping = false;
  private woken = false;
  /** Ends the current wait; null while no wait is under way. */
  private endWait: (() => void) | null = null;
  private unlisten?: () => void;

  constructor(
    /** Claims and handles what is due; answers whether it found anything. */
    private readonly round: () => Promise<boolean>,
    private readonly options: WorkerLoopOptions,
  ) {}

  /** Starts the loop; `drain` runs once it has stopped (letting go of claims, recording outcomes). */
  start(drain?: () => Promise<void>): void {
    if (this.running) return;
    this.stopping = false;
    this.unlisten = this.options.bell?.listen(() => this.wake());
    this.running = this.loop().then(drain);
  }

  wake(): void {
    this.woken = true;
    this.endWait?.();
  }

  /** Lets the current round finish, then the drain given to start. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.unlisten?.();
    this.wake();
    await this.running;
    this.running = null;
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      let busy = false;
      try {
        busy = await this.round();
      } catch (error) {
        this.options.onError?.(error);
      }
      if (!busy && !this.stopping) await this.idle();
    }
  }

  private idle(): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      // Whichever ends the wait, the timer or a wake, clears endWait: one left behind by a wait the
      // timer ended was called by the next wake during a round, which it swallowed (woken reset,
      // no wait to end), so that round's end waited a whole poll with work due.
      const done = () => {
        clearTimeout(timer);
        this.endWait = null;
        this.woken = false;
        resolve();
      };
      const timer = setTimeout(done, this.options.pollMs);
      this.endWait = done;
    });
  }
}
