import { Migration } from 'kysely';
import * as initial from './001_initial';
import * as extensions from './003_extensions';

/** Every migration, in order. Listed in code so a compiled build needs no migrations folder scan. */
export const migrations: Record<string, Migration> = {
  '001_initial': initial,
  '003_extensions': extensions,
};
