import { allOptional, inputs, int, listOf, mapOf, record, string, timestamp } from '../kernel/shape';
import { PACKAGE_PRICING_ROW, PRICING_ADD } from './pricings.fields';

/** The fields of packages/* (see `@callable({ vars, returns })` in packages.ts). */

const STATUSES = ['active', 'inactive', 'restricted'];

export const PACKAGE = record({
  id: int(),
  company_id: int(),
  name: string(),
  description: string({ nullable: true }),
  module: string({ nullable: true, description: 'The module extension that provisions its services.' }),
  status: string({ enum: STATUSES }),
  taxable: int({ enum: [0, 1] }),
  qty: int({ nullable: true, description: 'How many may be sold; null: no limit.' }),
  client_qty: int({ nullable: true, description: 'How many one client may hold; null: no limit.' }),
  prorata_day: int({ nullable: true, description: 'Services are first billed to this day of the month.' }),
  prorata_cutoff: int({ nullable: true, description: 'A service started after this day of the month is first billed to the pro rata day of the next month (packages/getProrataDates).' }),
  date_added: timestamp(),
  module_id: int({ nullable: true, description: "The installed module's id." }),
  names: listOf(record({ lang: string(), name: string() })),
  descriptions: listOf(record({ lang: string(), text: string(), html: string() })),
  meta: mapOf(string(), { description: "The module's settings for this package." }),
  pricing: listOf(PACKAGE_PRICING_ROW),
  groups: listOf(int(), { description: 'The ids of its package groups.' }),
  option_groups: listOf(int(), { description: 'The ids of its package option groups (the options it offers).' }),
});

export const PACKAGES = listOf(PACKAGE);

export const PACKAGE_ADD = inputs({
  names: listOf(record(inputs({ lang: string(), name: string({ required: true }) })), { example: [{ lang: 'en_us', name: 'Hosting' }], description: 'The name (or vars[name]).' }),
  name: string({ description: 'The name, when names is not given.' }),
  descriptions: listOf(record(inputs({ lang: string(), text: string() }))),
  pricing: listOf(record([...PRICING_ADD, { name: 'id', kind: 'int', required: false, description: 'packages/edit: the row to change (an empty term removes it).' }]), {
    description: 'Pricing rows.',
  }),
  module_id: int({ description: 'An installed module of the company.' }),
  meta: mapOf(string(), { description: "The module's settings for this package (e.g. plan)." }),
  status: string({ enum: STATUSES, description: 'Default active.' }),
  taxable: int({ enum: [0, 1] }),
  qty: int(),
  client_qty: int(),
  prorata_day: int({ description: '1 to 28.' }),
  prorata_cutoff: int({ description: '1 to 28: the pro rata cut-off day.' }),
  groups: listOf(int(), { description: 'Package group ids (edit: replaces them).' }),
  option_groups: listOf(int(), { description: 'Package option group ids: the options the package offers (edit: replaces them).' }),
});

export const PACKAGE_EDIT = allOptional(PACKAGE_ADD);

export const LABELS = mapOf(string());
