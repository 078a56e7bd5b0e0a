import { Generated } from 'kysely';

/** The tables of migration 032 (plugins' registrations; staff notices and quick links), merged into `Database` as module-rows-schema.ts does. */
declare module './schema' {
  interface Database {
    plugin_actions: PluginActionsTable;
    plugin_cards: PluginCardsTable;
    plugin_events: PluginEventsTable;
    plugin_messages: PluginMessagesTable;
    plugin_permission_groups: PluginPermissionGroupsTable;
    plugin_permissions: PluginPermissionsTable;
    staff_notices: StaffNoticesTable;
    staff_links: StaffLinksTable;
  }
}

interface PluginRow {
  id: Generated<number>;
  company_id: number;
  /** `extensions_installed.id` of the company's plugin. */
  plugin_id: number;
}

export interface PluginActionsTable extends PluginRow {
  location: string;
  url: string;
  name: string;
  options: string | null;
  enabled: Generated<number>;
}

export interface PluginCardsTable extends PluginRow {
  level: string;
  callback: string;
  callback_type: string;
  label: string;
  link: string | null;
  text_color: string | null;
  background: string | null;
  background_type: string;
  enabled: Generated<number>;
}

export interface PluginEventsTable extends PluginRow {
  event: string;
  callback: string;
  enabled: Generated<number>;
}

export interface PluginMessagesTable extends PluginRow {
  action: string;
  type: string;
  tags: string;
  content: string;
}

export interface PluginPermissionGroupsTable extends PluginRow {
  name: string;
  level: string;
  alias: string;
}

export interface PluginPermissionsTable extends PluginRow {
  group_id: number;
  name: string;
  alias: string;
  action: string;
}

export interface StaffNoticesTable {
  id: Generated<number>;
  company_id: number;
  staff_id: number;
  staff_group_id: number | null;
  action: string;
}

export interface StaffLinksTable {
  id: Generated<number>;
  company_id: number;
  staff_id: number;
  uri: string;
  title: string;
  order: Generated<number>;
}
