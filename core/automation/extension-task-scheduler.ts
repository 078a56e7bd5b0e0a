import { Installation } from '../installation';
import { runExtensionTasks } from './extension-tasks';
import { SchedulerEvents, TickScheduler } from './scheduler';

/**
 * Ticks extensions' scheduled tasks (TALLY_EXTENSION_TASK_SECONDS) in `tally serve`, apart from the
 * billing scheduler and more often than it: a task due every minute runs within a tick of its
 * time. Every process may tick; each due time still runs once (extension-tasks.ts).
 */
export class ExtensionTaskScheduler extends TickScheduler {
  constructor(installation: Installation, intervalMs: number, events: SchedulerEvents = {}) {
    super((now) => runExtensionTasks(installation, { now }), intervalMs, events);
  }
}
