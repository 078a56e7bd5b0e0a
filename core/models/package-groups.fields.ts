import { allOptional, inputs, int, listOf, mapOf, record, string } from '../kernel/shape';

/** The fields of package_groups/* (see `@callable({ vars, returns })` in package-groups.ts). */

const TYPES = ['standard', 'addon'];

const GROUP_FIELDS = { id: int(), company_id: int(), name: string(), description: string({ nullable: true }), type: string({ enum: TYPES }) };

export const PACKAGE_GROUP_ROW = record(GROUP_FIELDS);

export const PACKAGE_GROUP = record({
  ...GROUP_FIELDS,
  names: listOf(record({ lang: string(), name: string() })),
  packages: listOf(int(), { description: 'The ids of its packages, in their order (packages/orderPackages).' }),
  parents: listOf(int(), { description: 'An addon group: the standard groups whose services its packages attach to.' }),
});

export const PACKAGE_GROUP_ROWS = listOf(PACKAGE_GROUP_ROW);

export const PACKAGE_GROUP_ADD = inputs({
  names: listOf(record(inputs({ lang: string(), name: string({ required: true }) })), { example: [{ lang: 'en_us', name: 'Shared hosting' }], description: 'The name (or vars[name]).' }),
  name: string({ description: 'The name, when names is not given.' }),
  descriptions: listOf(record(inputs({ lang: string(), description: string() }))),
  description: string(),
  type: string({ enum: TYPES, description: 'Default standard.' }),
  parents: listOf(int(), { description: 'An addon group: the standard groups it attaches to (edit: replaces them).' }),
});

export const PACKAGE_GROUP_EDIT = allOptional(PACKAGE_GROUP_ADD);

export const LABELS = mapOf(string());
