import { int, listOf, mapOf, record, string } from '../kernel/shape';

/** The records of plugin_manager's registrations (core/models/extension-managers/plugin-*.ts). */

const ENABLED = int({ enum: [0, 1], description: '1: shown or delivered; 0: kept but not.' });
const PLUGIN = { plugin_id: int({ description: 'The installed plugin (plugin_manager/get).' }), plugin_dir: string({ description: "The plugin's directory name." }) };

export const ACTION_LOCATIONS = ['nav_client', 'nav_staff', 'nav_public', 'widget_client_home', 'widget_staff_home', 'widget_staff_client', 'widget_staff_billing', 'action_staff_client'] as const;

export const PLUGIN_ACTION = record({
  id: int(),
  ...PLUGIN,
  company_id: int(),
  location: string({ enum: ACTION_LOCATIONS, description: 'Where the action is offered.' }),
  url: string({ description: 'A path on Tally or an http(s) address.' }),
  name: string({ description: 'Its text, shown as text.' }),
  options: mapOf(string(), { nullable: true }),
  enabled: ENABLED,
});
export const PLUGIN_ACTIONS = listOf(PLUGIN_ACTION);

export const PLUGIN_CARD = record({
  id: int(),
  ...PLUGIN,
  level: string({ enum: ['client', 'staff'] }),
  callback: string({ description: "The name of the plugin's function that answers the card's value." }),
  callback_type: string({ enum: ['value'] }),
  label: string(),
  link: string({ nullable: true }),
  text_color: string({ nullable: true, description: '#rgb or #rrggbb.' }),
  background: string({ nullable: true, description: '#rgb or #rrggbb, or an https address of an image.' }),
  background_type: string({ enum: ['color', 'image'] }),
  enabled: ENABLED,
});
export const PLUGIN_CARDS = listOf(PLUGIN_CARD);

export const PLUGIN_EVENT = record({
  ...PLUGIN,
  event: string({ description: "An event Tally emits that the plugin's manifest lists (docs/events.md)." }),
  callback: string({ description: "The plugin's handler: exports.events[event]." }),
  enabled: ENABLED,
});
export const PLUGIN_EVENTS = listOf(PLUGIN_EVENT);

export const PLUGIN_MESSAGE = record({
  id: int(),
  ...PLUGIN,
  action: string(),
  type: string({ enum: ['staff', 'client', 'shared'] }),
  tags: string({ description: 'Comma-separated replacement tags, as {client},{service.name}.' }),
  content: mapOf(string(), { description: 'Messenger type → the message text.' }),
});
export const PLUGIN_MESSAGES = listOf(PLUGIN_MESSAGE);

export const PLUGIN_PERMISSION = record({ id: int(), group_id: int(), name: string(), alias: string(), action: string() });
export const PLUGIN_PERMISSION_GROUP = record({
  id: int(),
  ...PLUGIN,
  name: string(),
  level: string({ enum: ['staff', 'client'] }),
  alias: string(),
  permissions: listOf(PLUGIN_PERMISSION),
});
export const PLUGIN_PERMISSION_GROUPS = listOf(PLUGIN_PERMISSION_GROUP);
