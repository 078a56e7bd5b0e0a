import { int, record, string, timestamp, bool } from '../kernel/shape';

/** The fields of extension_tasks/* (see `@callable({ returns })` in extension-tasks.ts). */
export const EXTENSION_TASK = record({
  task: string({ description: 'The task as `<extension>.<task>`: what enable and disable take.' }),
  extension: string({ description: 'The extension declaring it (its directory name).' }),
  schedule: string({ description: 'As its manifest declares it: "every N minutes" (UTC multiples of N) or "daily at HH:MM" (the company\'s time).' }),
  enabled: bool({ description: 'Whether the company runs it; a disabled extension runs none of its tasks.' }),
  last_due: timestamp({ nullable: true, description: 'The last due time (UTC) a run was started for.' }),
  status: string({ nullable: true, enum: ['running', 'done', 'failed'], description: 'Its last run: running, done or failed; null before the first.' }),
  date_started: timestamp({ nullable: true }),
  date_finished: timestamp({ nullable: true }),
  runs: int({ description: 'How many runs have started.' }),
  message: string({ nullable: true, description: 'Why the last run failed.' }),
});
