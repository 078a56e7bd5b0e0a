import { isEventName } from '../../core/events/event-names';
import { ExtensionTask, TaskSchedule } from '../../core/kernel/extension-catalog';

/**
 * The manifest's `events` (event types its handlers receive) and `tasks` (name → schedule), checked
 * here so the rest of the manifest's checks stay as they are. An event type is one Tally emits
 * (core/events/event-names.ts: `Services.suspend`, `Invoices.add`, ...): a handler for a name
 * nothing emits would wait for ever.
 */
const TASK_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const EVERY = /^every (\d{1,4}) minutes?$/;
const DAILY = /^daily at ([01]\d|2[0-3]):([0-5]\d)$/;

/** The longest interval a task may ask for: a day (a daily task says when in the day). */
const MOST_MINUTES = 1440;

export function checkEvents(value: unknown, problems: string[]): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    problems.push('"events" must be a list of event types such as "Services.suspend".');
    return [];
  }
  const events: string[] = [];
  value.forEach((e, i) => {
    if (!isEventName(e)) problems.push(`"events[${i}]" must name an event type Tally emits, such as "Services.suspend" (docs/events.md lists them).`);
    else if (events.includes(e)) problems.push(`"events" lists "${e}" twice.`);
    else events.push(e);
  });
  return events;
}

export function checkTasks(value: unknown, problems: string[]): ExtensionTask[] {
  if (value === undefined) return [];
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    problems.push('"tasks" must be an object: task name → "every N minutes" or "daily at HH:MM".');
    return [];
  }
  const tasks: ExtensionTask[] = [];
  for (const [name, schedule] of Object.entries(value)) {
    const parsed = typeof schedule === 'string' ? parseSchedule(schedule) : null;
    if (!TASK_NAME.test(name)) problems.push(`"tasks.${name}": task names are lowercase letters, digits and _, starting with a letter.`);
    else if (!parsed) problems.push(`"tasks.${name}" must be "every N minutes" (1 to ${MOST_MINUTES}) or "daily at HH:MM" (the company's time), not ${JSON.stringify(schedule)}.`);
    else tasks.push({ name, schedule: schedule as string, ...parsed });
  }
  return tasks;
}

/** "every 15 minutes" or "daily at 03:30"; null for anything else. */
export function parseSchedule(text: string): TaskSchedule | null {
  const every = EVERY.exec(text);
  if (every) {
    const minutes = Number(every[1]);
    return minutes >= 1 && minutes <= MOST_MINUTES ? { every: minutes } : null;
  }
  const daily = DAILY.exec(text);
  return daily ? { dailyAt: `${daily[1]}:${daily[2]}` } : null;
}

/** Why what the module exports does not match what its manifest asks for (each named, with the fix), or null. */
export function subscriptionProblem(manifest: { events: readonly string[]; tasks: readonly ExtensionTask[] }, exported: { events: readonly string[]; tasks: readonly string[] }): string | null {
  const problems: string[] = [];
  const compare = (listed: readonly string[], found: readonly string[], what: string, manifestKey: string, exportKey: string) => {
    for (const name of listed) if (!found.includes(name)) problems.push(`config.json lists the ${what} "${name}" in "${manifestKey}" but exports.${exportKey} has no function for it.`);
    for (const name of found)
      if (!listed.includes(name)) problems.push(`exports.${exportKey} has "${name}", which config.json's "${manifestKey}" does not list (the installer sees only what it lists).`);
  };
  compare(manifest.events, exported.events, 'event', 'events', 'events');
  compare(
    manifest.tasks.map((t) => t.name),
    exported.tasks,
    'task',
    'tasks',
    'tasks',
  );
  return problems.length ? problems.join(' ') : null;
}
