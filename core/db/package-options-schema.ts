import { Generated } from 'kysely';

/** The tables of migration 030 (package options), merged into `Database` as recurring-schema.ts does. */
declare module './schema' {
  interface Database {
    package_option_groups: PackageOptionGroupsTable;
    package_options: PackageOptionsTable;
    package_option_values: PackageOptionValuesTable;
    package_option_pricing: PackageOptionPricingTable;
    package_option_group_options: { option_group_id: number; option_id: number; sort_order: Generated<number> };
    package_option_group_packages: { package_id: number; option_group_id: number };
    service_options: ServiceOptionsTable;
  }
}

export interface PackageOptionGroupsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  description: string | null;
}

export interface PackageOptionsTable {
  id: Generated<number>;
  company_id: number;
  label: string;
  name: string;
  type: string;
  addable: number;
  editable: number;
  hidden: number;
  description: string | null;
}

export interface PackageOptionValuesTable {
  id: Generated<number>;
  option_id: number;
  name: string;
  value: string | null;
  sort_order: number;
  is_default: number;
  status: string;
  min: number | null;
  max: number | null;
  step: number | null;
}

export interface PackageOptionPricingTable {
  id: Generated<number>;
  value_id: number;
  term: number;
  period: string;
  price: string;
  price_renews: string | null;
  setup_fee: string;
  cancel_fee: string;
  currency: string;
}

export interface ServiceOptionsTable {
  id: Generated<number>;
  service_id: number;
  option_id: number;
  value_id: number;
  value: string | null;
  qty: number;
}
