import { allOptional, bool, inputs, int, listOf, record, string } from '../kernel/shape';
import { PACKAGE_PRICING_ROW, PRICING_ADD } from './pricings.fields';

/** The fields of package_options/* and package_option_groups/* (see `@callable({ vars, returns })` in package-options.ts and package-option-groups.ts). */

export const OPTION_TYPES = ['select', 'radio', 'checkbox', 'quantity', 'text', 'textarea', 'password'];

const VALUE = record({
  id: int(),
  option_id: int(),
  name: string(),
  value: string({ nullable: true, description: 'What configoptions[<option_id>] sends to choose it (select, radio, checkbox).' }),
  order: int(),
  default: int({ enum: [0, 1] }),
  status: string({ enum: ['active', 'inactive'] }),
  min: int({ nullable: true }),
  max: int({ nullable: true }),
  step: int({ nullable: true }),
  pricing: listOf(PACKAGE_PRICING_ROW, { description: 'Its price per term, period and currency.' }),
});

export const PACKAGE_OPTION = record({
  id: int(),
  company_id: int(),
  label: string(),
  name: string(),
  type: string({ enum: OPTION_TYPES }),
  addable: int({ enum: [0, 1] }),
  editable: int({ enum: [0, 1] }),
  hidden: int({ enum: [0, 1] }),
  description: string({ nullable: true }),
  values: listOf(VALUE),
  groups: listOf(int(), { description: 'The option groups it is in.' }),
});

export const PACKAGE_OPTIONS = listOf(PACKAGE_OPTION);

export const PACKAGE_OPTION_ADD = inputs({
  label: string({ required: true, example: 'Memory' }),
  name: string({ required: true, example: 'memory', description: 'The name modules read (letters, digits, _, ., -).' }),
  type: string({ required: true, enum: OPTION_TYPES, example: 'select' }),
  addable: bool({ description: 'Default 1.' }),
  editable: bool({ description: 'Default 1.' }),
  hidden: bool({ description: 'Default 0.' }),
  description: string(),
  groups: listOf(int(), { description: 'Option groups of the company it belongs to (edit: replaces them).' }),
  values: listOf(
    record(
      inputs({
        id: int({ description: 'Edit: a value of the option to change (values not listed are removed, unless a service uses them).' }),
        name: string({ required: true }),
        value: string({ description: 'Select, radio, checkbox: what configoptions sends.' }),
        default: bool(),
        status: string({ enum: ['active', 'inactive'] }),
        min: int({ description: 'Quantity: default 0.' }),
        max: int({ description: 'Quantity: blank for no limit.' }),
        step: int({ description: 'Quantity: default 1.' }),
        pricing: listOf(record(PRICING_ADD)),
      }),
    ),
    { example: [{ name: '1 GB', value: '1024', pricing: [{ term: 1, period: 'month', price: '5.00', currency: 'USD' }] }] },
  ),
});

export const PACKAGE_OPTION_EDIT = allOptional(PACKAGE_OPTION_ADD);

export const VALUE_PRICE = record({
  price: string({ format: 'money', description: 'One term: the price, or the renewal price with renew=true (qty times).' }),
  setup_fee: string({ format: 'money' }),
  currency: string({ format: 'currency' }),
});

export const PACKAGE_OPTION_GROUP = record({
  id: int(),
  company_id: int(),
  name: string(),
  description: string({ nullable: true }),
  options: listOf(int(), { description: 'Its options, in order.' }),
  packages: listOf(int(), { description: 'The packages it is assigned to (packages/add and edit vars[option_groups][]).' }),
});

export const PACKAGE_OPTION_GROUPS = listOf(PACKAGE_OPTION_GROUP);

export const PACKAGE_OPTION_GROUP_ADD = inputs({
  name: string({ required: true, example: 'VPS options' }),
  description: string(),
});

export const PACKAGE_OPTION_GROUP_EDIT = allOptional(PACKAGE_OPTION_GROUP_ADD);
