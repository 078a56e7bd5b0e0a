import { Installation } from '../installation';
import { runBilling, TaskReport } from './billing-run';

export interface SchedulerEvents {
  ran?(reports: readonly TaskReport[]): void;
  failed?(error: unknown): void;
}

/**
 * Runs `run` every `intervalMs` in `tally serve`, and once at start. A tick still running when the
 * next comes is not doubled; what `run` does must be safe when another process does it too.
 */
export class TickScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly run: (now?: Date | string) => Promise<readonly TaskReport[]>,
    private readonly intervalMs: number,
    private readonly events: SchedulerEvents = {},
  ) {}

  start(): void {
    if (this.timer || this.intervalMs <= 0) return;
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref();
    setImmediate(() => void this.tick());
  }

  /** One round of due work at `now` (default: the clock); resolves when it is done. */
  tick(now?: Date | string): Promise<void> {
    if (this.running) return this.running;
    this.running = this.run(now)
      .then(
        (reports) => this.events.ran?.(reports),
        (error) => this.events.failed?.(error),
      )
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  /** Stops ticking and waits for a round in progress. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}

/**
 * The billing scheduler of `tally serve` (on the primary process only): every `intervalMs` it runs
 * what is due — interval tasks every time, daily tasks once a company-local day after the
 * company's automation time. Another process or a cron `tally automation run` at the same time
 * shares the work safely.
 */
export class AutomationScheduler extends TickScheduler {
  constructor(installation: Installation, intervalMs: number, events: SchedulerEvents = {}) {
    super((now) => runBilling(installation, { now, dueOnly: true }), intervalMs, events);
  }
}
