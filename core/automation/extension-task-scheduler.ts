import { Installation } from '../installation';
import { TaskReport } from './billing-run';
import { runExtensionTasks } from './extension-tasks';
import { SchedulerEvents } from './scheduler';

/**
 * Ticks extensions' scheduled tasks (TALLY_EXTENSION_TASK_SECONDS) in `tally serve`, apart from the
 * billing scheduler and more often than it: a task due every minute runs within a tick of its
 * time. Every process may tick; each due time still runs once (extension-tasks.ts). A tick still
 * running when the next comes is not doubled.
 */
export class ExtensionTaskScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly installation: Installation,
    private readonly intervalMs: number,
    private readonly events: SchedulerEvents = {},
  ) {}

  start(): void {
    if (this.timer || this.intervalMs <= 0) return;
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref();
    setImmediate(() => void this.tick());
  }

  tick(now?: Date | string): Promise<void> {
    if (this.running) return this.running;
    this.running = runExtensionTasks(this.installation, { now })
      .then(
        (reports: TaskReport[]) => this.events.ran?.(reports),
        (error) => this.events.failed?.(error),
      )
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
