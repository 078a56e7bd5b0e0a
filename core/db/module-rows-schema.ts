import { Generated } from 'kysely';

/** The tables of migration 025 (module rows, groups and meta; addon groups' parents), merged into `Database` as recurring-schema.ts does. */
declare module './schema' {
  interface Database {
    module_rows: ModuleRowsTable;
    module_groups: ModuleGroupsTable;
    module_row_groups: ModuleRowGroupsTable;
    module_meta: ModuleMetaTable;
    /** An addon package group's parent (standard) groups: the groups whose services its packages attach to. */
    package_group_parents: { group_id: number; parent_group_id: number };
  }
}

declare module './recurring-schema' {
  interface PackagesTable {
    /** The day of the month after which a new service is prorated to the next month's pro rata day. */
    prorata_cutoff: Generated<number | null>;
  }
  interface ServicesTable {
    /** The module row (server) the service was provisioned on, or null. */
    module_row_id: Generated<number | null>;
  }
}

export interface ModuleRowsTable {
  id: Generated<number>;
  company_id: number;
  /** `extensions_installed.id` of the company's module. */
  module_id: number;
  /** JSON object of the row's fields; secret ones systemEncrypt'ed. */
  meta: string;
  /** JSON list of the keys of `meta` stored encrypted. */
  secret_keys: string;
  date_added: string;
}

export interface ModuleGroupsTable {
  id: Generated<number>;
  company_id: number;
  module_id: number;
  name: string;
  /** Which row a service added to the group is provisioned on: `first` or `roundrobin`. */
  add_order: string;
  force_limits: number;
}

export interface ModuleRowGroupsTable {
  module_group_id: number;
  module_row_id: number;
}

export interface ModuleMetaTable {
  id: Generated<number>;
  company_id: number;
  module_id: number;
  key: string;
  value: string;
  encrypted: number;
}
