import { Generated } from 'kysely';

/**
 * Tables of recurring billing (migration 008), merged into the `Database` interface so the models
 * query them typed. Kept apart from schema.ts so other issues' schema edits and this one do not
 * collide. Money is decimal text with four places; timestamps UTC `YYYY-MM-DD hh:mm:ss`.
 */
declare module './schema' {
  interface Database {
    packages: PackagesTable;
    pricings: PricingsTable;
    package_groups: PackageGroupsTable;
    /** `sort_order`: the package's place in the group (packages/orderPackages; migration 025). */
    package_group_packages: { package_group_id: number; package_id: number; sort_order: Generated<number> };
    coupons: CouponsTable;
    coupon_amounts: { coupon_id: number; currency: string; amount: string; type: string };
    coupon_packages: { coupon_id: number; package_id: number };
    services: ServicesTable;
    service_fields: { service_id: number; key: string; value: string; encrypted: number };
    service_invoices: ServiceInvoicesTable;
    accounts: AccountsTable;
    client_autodebit: { client_id: number; account_id: number; failures: number };
    autodebit_attempts: AutodebitAttemptsTable;
    automation_leases: { company_id: number; task: string; slice: number; owner: string; lease_until: string };
    automation_runs: AutomationRunsTable;
  }
}

export interface PackagesTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  description: string | null;
  module: string | null;
  module_settings: string;
  status: string;
  taxable: number;
  qty: number | null;
  client_qty: number | null;
  prorata_day: number | null;
  date_added: string;
}

export interface PricingsTable {
  id: Generated<number>;
  company_id: number;
  package_id: number | null;
  term: number;
  period: string;
  price: string;
  price_renews: string | null;
  setup_fee: string;
  cancel_fee: string;
  currency: string;
}

export interface PackageGroupsTable {
  id: Generated<number>;
  company_id: number;
  name: string;
  description: string | null;
  type: string;
}

export interface CouponsTable {
  id: Generated<number>;
  company_id: number;
  code: string;
  used_qty: number;
  max_qty: number;
  start_date: string | null;
  end_date: string | null;
  status: string;
  recurring: number;
  limit_recurring: number;
}

export interface ServicesTable {
  id: Generated<number>;
  company_id: number;
  client_id: number;
  pricing_id: number;
  parent_service_id: number | null;
  package_group_id: number | null;
  coupon_id: number | null;
  qty: number;
  override_price: string | null;
  override_currency: string | null;
  status: string;
  suspension_reason: string | null;
  auto_suspended: number;
  date_added: string;
  date_renews: string | null;
  date_last_renewed: string | null;
  date_suspended: string | null;
  date_canceled: string | null;
}

export interface ServiceInvoicesTable {
  service_id: number;
  period_start: string;
  period_end: string | null;
  invoice_id: number;
  kind: string;
  date_processed: string | null;
}

export interface AccountsTable {
  id: Generated<number>;
  company_id: number;
  client_id: number;
  contact_id: number;
  type: string;
  first_name: string;
  last_name: string;
  gateway: string;
  reference_id: string;
  last4: string;
  card_type: string | null;
  expiration: string | null;
  currency: string | null;
  status: string;
  date_added: string;
}

export interface AutodebitAttemptsTable {
  invoice_id: number;
  attempt_date: string;
  account_id: number;
  status: string;
  message: string | null;
  transaction_id: number | null;
  date_added: string;
}

export interface AutomationRunsTable {
  company_id: number;
  task: string;
  status: string;
  run_date: string | null;
  date_started: string;
  date_finished: string | null;
  processed: number;
  failed: number;
  message: string | null;
}
