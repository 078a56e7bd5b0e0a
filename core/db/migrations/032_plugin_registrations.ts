import { Kysely } from 'kysely';
import { autoIncrementId, idType } from './id-column';

/**
 * What an installed plugin registers with its company, as the reference's PluginManager keeps it
 * (issue 29): navigation actions, client and staff cards, event subscriptions, messages, and
 * permission groups with their permissions. Every row names the company and the installed plugin
 * (`extensions_installed.id`); uninstalling the plugin removes its rows. Also the reference's
 * staff notices (which staff member receives which staff email, by email group action) and staff
 * quick links.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const table = (name: string) =>
    db.schema
      .createTable(name)
      .addColumn('id', idType(db), autoIncrementId(db))
      .addColumn('company_id', 'integer', (c) => c.notNull());
  const pluginTable = (name: string) => table(name).addColumn('plugin_id', 'integer', (c) => c.notNull());

  await pluginTable('plugin_actions')
    .addColumn('location', 'varchar(32)', (c) => c.notNull())
    .addColumn('url', 'varchar(255)', (c) => c.notNull())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    /** JSON object of the action's options, or null. */
    .addColumn('options', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex('plugin_actions_key').unique().on('plugin_actions').columns(['plugin_id', 'location', 'url']).execute();
  await db.schema.createIndex('plugin_actions_company').on('plugin_actions').columns(['company_id', 'location']).execute();

  await pluginTable('plugin_cards')
    .addColumn('level', 'varchar(16)', (c) => c.notNull())
    .addColumn('callback', 'varchar(128)', (c) => c.notNull())
    .addColumn('callback_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('label', 'varchar(128)', (c) => c.notNull())
    .addColumn('link', 'varchar(255)')
    .addColumn('text_color', 'varchar(32)')
    .addColumn('background', 'varchar(255)')
    .addColumn('background_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex('plugin_cards_key').unique().on('plugin_cards').columns(['plugin_id', 'callback', 'level']).execute();
  await db.schema.createIndex('plugin_cards_company').on('plugin_cards').columns(['company_id', 'level']).execute();

  await pluginTable('plugin_events')
    .addColumn('event', 'varchar(128)', (c) => c.notNull())
    .addColumn('callback', 'varchar(128)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.createIndex('plugin_events_key').unique().on('plugin_events').columns(['plugin_id', 'event']).execute();
  await db.schema.createIndex('plugin_events_company').on('plugin_events').columns(['company_id', 'event']).execute();

  await pluginTable('plugin_messages')
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('tags', 'text', (c) => c.notNull())
    /** JSON object: messenger type → the message's text. */
    .addColumn('content', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('plugin_messages_key').unique().on('plugin_messages').columns(['company_id', 'action']).execute();

  await pluginTable('plugin_permission_groups')
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('level', 'varchar(16)', (c) => c.notNull())
    .addColumn('alias', 'varchar(128)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('plugin_permission_groups_key').unique().on('plugin_permission_groups').columns(['plugin_id', 'alias']).execute();

  await pluginTable('plugin_permissions')
    .addColumn('group_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(128)', (c) => c.notNull())
    .addColumn('alias', 'varchar(128)', (c) => c.notNull())
    .addColumn('action', 'varchar(128)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('plugin_permissions_key').unique().on('plugin_permissions').columns(['plugin_id', 'alias', 'action']).execute();

  await table('staff_notices')
    .addColumn('staff_id', 'integer', (c) => c.notNull())
    .addColumn('staff_group_id', 'integer')
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('staff_notices_key').unique().on('staff_notices').columns(['staff_id', 'action']).execute();
  await db.schema.createIndex('staff_notices_action').on('staff_notices').columns(['company_id', 'action']).execute();

  await table('staff_links')
    .addColumn('staff_id', 'integer', (c) => c.notNull())
    .addColumn('uri', 'varchar(255)', (c) => c.notNull())
    .addColumn('title', 'varchar(128)', (c) => c.notNull())
    .addColumn('order', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('staff_links_key').unique().on('staff_links').columns(['staff_id', 'uri']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ['staff_links', 'staff_notices', 'plugin_permissions', 'plugin_permission_groups', 'plugin_messages', 'plugin_events', 'plugin_cards', 'plugin_actions']) {
    await db.schema.dropTable(name).execute();
  }
}
