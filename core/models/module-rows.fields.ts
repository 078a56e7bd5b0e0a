import { int, listOf, mapOf, record, string, timestamp } from '../kernel/shape';

/** The fields of module_manager's rows, groups and meta (core/models/extension-managers/module-*.ts). */

export const MODULE_ROW = record({
  id: int(),
  module_id: int({ description: 'The installed module (module_manager/get).' }),
  meta: mapOf(string(), { description: "The row's fields its module's manifest declares (row_fields), but the secret ones." }),
  secrets_set: listOf(string(), { description: 'The secret fields that have a value: stored encrypted, never answered.' }),
  date_added: timestamp(),
});
export const MODULE_ROWS = listOf(MODULE_ROW);

export const MODULE_GROUP = record({
  id: int(),
  module_id: int(),
  name: string(),
  add_order: string({ enum: ['first', 'roundrobin'], description: 'Which of its rows a service added to the group goes on: the first, or the one after the last used.' }),
  force_limits: int({ enum: [0, 1] }),
  rows: MODULE_ROWS,
});
export const MODULE_GROUPS = listOf(MODULE_GROUP);

export const MODULE_META = mapOf(string(), { description: 'key → value; values set encrypted are not answered.' });
