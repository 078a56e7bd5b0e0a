/**
 * The areas a staff group's permissions are given in. Every staff member reads every area; a
 * group names the areas its members may change (any call not declared GET). A model no area
 * names (a plugin's, a new core model) is in `settings`: only a group that may change the
 * installation's settings may change what nobody has placed yet.
 */
export const STAFF_AREAS = ['clients', 'billing', 'services', 'catalog', 'settings', 'staff'] as const;

export type StaffArea = (typeof STAFF_AREAS)[number];

/** What each area covers, for the screens and the CLI's help. */
export const AREA_LABELS: Readonly<Record<StaffArea, string>> = {
  clients: 'Clients and contacts',
  billing: 'Invoices, payments and payment accounts',
  services: "Clients' services",
  catalog: 'Packages, package groups, pricing and coupons',
  settings: 'Company and system settings, taxes, currencies, API access, webhooks, extensions',
  staff: 'Staff groups and who is in them',
};

const AREA_OF_MODEL: Readonly<Record<string, StaffArea>> = {
  clients: 'clients',
  contacts: 'clients',
  invoices: 'billing',
  transactions: 'billing',
  accounts: 'billing',
  invoice_notices: 'billing',
  // Refunds through a gateway and re-processing its notifications move money: billing, not settings.
  gateway_payments: 'billing',
  gateway_notifications: 'billing',
  services: 'services',
  service_changes: 'services',
  packages: 'catalog',
  package_groups: 'catalog',
  pricings: 'catalog',
  coupons: 'catalog',
  staff: 'staff',
  staff_groups: 'staff',
};

/** The area a model's writes belong to. */
export function areaOfModel(model: string): StaffArea {
  return Object.prototype.hasOwnProperty.call(AREA_OF_MODEL, model) ? AREA_OF_MODEL[model] : 'settings';
}

/** The four groups most installations start with, offered by the screens and the CLI. */
export const STAFF_PRESETS: Readonly<Record<'full' | 'billing' | 'support' | 'read-only', readonly StaffArea[]>> = {
  full: STAFF_AREAS,
  billing: ['clients', 'billing', 'services'],
  support: ['clients', 'services'],
  'read-only': [],
};

export function isStaffArea(value: unknown): value is StaffArea {
  return typeof value === 'string' && (STAFF_AREAS as readonly string[]).includes(value);
}

/** A stored permissions column as areas, in the catalogue's order (unknown words dropped). */
export function parsePermissions(stored: string): StaffArea[] {
  const words = new Set(stored.split(/\s+/));
  return STAFF_AREAS.filter((area) => words.has(area));
}
