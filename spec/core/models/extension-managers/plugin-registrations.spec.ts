import { expect } from 'chai';
import { OutboxEvent } from '../../../../core/events/event-consumers';
import { PluginEventConsumer } from '../../../../host/extensions/plugin-event-consumer';
import { ExtensionsDir, manifest } from '../../../host/extensions/fixtures';
import { Credential, startTestServer, TestServer } from '../../../support/test-server';
import { call, newCompany, ok } from '../../../host/api/billing/fixtures';

const event = (type: string, companyId: number): OutboxEvent => ({ id: `evt_${Date.now()}_${Math.random()}`, type, companyId, occurredAt: '2026-11-27 12:00:00', payload: {} });

/**
 * plugin_manager's registrations as the reference's consumers call them: a company's installed
 * plugin registers actions, cards, event subscriptions, messages and permissions; each is the
 * company's alone, checked field by field, and goes when the plugin is uninstalled.
 */
describe("plugin_manager: a plugin's actions, cards, events, messages and permissions", function () {
  this.timeout(60_000);
  const dir = new ExtensionsDir()
    .add(
      'plugins/notes',
      manifest('Notes', { events: ['Clients.add', 'Services.suspend'] }),
      "exports.models = {}; const h = () => null; exports.events = { 'Clients.add': h, 'Services.suspend': h };",
    )
    .add('plugins/quiet', manifest('Quiet'), 'exports.models = {};');
  let server: TestServer;
  let notes: number;
  let other: { id: number; auth: Credential };
  let theirs: number;

  before(async () => {
    server = await startTestServer({ extensionsDir: dir.root });
    notes = await ok(server, 'POST', 'plugin_manager/add', { vars: { dir: 'notes' } });
    other = await newCompany(server, 'Other');
    theirs = await ok(server, 'POST', 'plugin_manager/add', { vars: { dir: 'notes' } }, other.auth);
  });
  after(async () => {
    await server.close();
    dir.remove();
  });

  it('checks an action field by field, refusing a URL that is not a path or an http(s) address, and keeps nothing', async () => {
    const bad = await call(server, 'POST', 'plugin_manager/addAction', { plugin_id: notes, vars: { url: 'javascript:alert(1)', location: 'nav_sideways', colour: 'red' } });
    expect(bad.status).to.equal(400);
    expect(bad.json.errors).to.deep.equal({
      colour: { unknown: 'A plugin action has no "colour": it takes location, url, name, options, enabled.' },
      location: { valid: 'A location must be one of: nav_client, nav_staff, nav_public, widget_client_home, widget_staff_home, widget_staff_client, widget_staff_billing, action_staff_client.' },
      url: { valid: 'The URL must be a path on Tally or an http(s) address.' },
      name: { empty: 'Please enter a name.' },
    });
    for (const url of ['//evil.example/x', 'data:text/html,x', 'https:evil', '/a"onmouseover=x']) {
      const refused = await call(server, 'POST', 'plugin_manager/addAction', { plugin_id: notes, vars: { url, name: 'x' } });
      expect(refused.json.errors, url).to.deep.equal({ url: { valid: 'The URL must be a path on Tally or an http(s) address.' } });
    }
    const nested = await call(server, 'POST', 'plugin_manager/addAction', { plugin_id: notes, vars: { url: '/x', name: 'x', options: { sub: { deep: 'x' } } } });
    expect(nested.json.errors).to.deep.equal({ options: { format: 'options are at most 50 values, each a text of at most 255 characters: vars[options][name]=value.' } });
    expect(await ok(server, 'GET', 'plugin_manager/getAllActions', { plugin_id: notes })).to.deep.equal([]);
  });

  it("registers actions per location and lists them by enabled state, the plugin's included", async () => {
    const first = await ok(server, 'POST', 'plugin_manager/addAction', { plugin_id: notes, vars: { url: '/admin/plugins/notes', name: 'Notes', options: { icon: 'note' } } });
    const second = await ok(server, 'POST', 'plugin_manager/addAction', { plugin_id: notes, vars: { location: 'nav_client', url: 'https://notes.example/client', name: 'My notes', enabled: '0' } });
    const again = await call(server, 'POST', 'plugin_manager/addAction', { plugin_id: notes, vars: { url: '/admin/plugins/notes', name: 'Twice' } });
    expect(again.json.errors).to.deep.equal({ url: { unique: 'The plugin already has an action with this URL in this location.' } });
    const action = await ok(server, 'GET', 'plugin_manager/getAction', { plugin_id: notes, action: 'nav_staff' });
    expect(action).to.deep.equal({
      id: first,
      plugin_id: notes,
      plugin_dir: 'notes',
      company_id: 1,
      location: 'nav_staff',
      url: '/admin/plugins/notes',
      name: 'Notes',
      options: { icon: 'note' },
      enabled: 1,
    });
    expect(await ok(server, 'GET', 'plugin_manager/getAction', { plugin_id: notes, action: 'nav_staff', uri: '/elsewhere' })).to.equal(false);
    expect((await ok(server, 'GET', 'plugin_manager/getActions', { company_id: 1, action: 'nav_client', enabled: '0' })).map((a: any) => a.id)).to.deep.equal([second]);
    expect((await ok(server, 'GET', 'plugin_manager/getActions', { company_id: 1, action: 'nav_client', enabled: '1' })).map((a: any) => a.id)).to.deep.equal([]);
    expect((await ok(server, 'GET', 'plugin_manager/getActions', { company_id: 1, action: 'nav_staff', enabled: '1' })).map((a: any) => a.id)).to.deep.equal([first]);
    await ok(server, 'PUT', 'plugin_manager/disable', { plugin_id: notes });
    expect(await ok(server, 'GET', 'plugin_manager/getActions', { company_id: 1, action: 'nav_staff', enabled: '1' }), 'the plugin disabled').to.deep.equal([]);
    await ok(server, 'PUT', 'plugin_manager/enable', { plugin_id: notes });
    await ok(server, 'DELETE', 'plugin_manager/deleteActions', { plugin_id: notes, url: 'https://notes.example/client' });
    expect((await ok(server, 'GET', 'plugin_manager/getAllActions', { plugin_id: notes })).map((a: any) => a.id)).to.deep.equal([first]);
  });

  it('keeps cards as text: no markup callback, hex colours, an https image, and finds them by callback and level', async () => {
    const bad = await call(server, 'POST', 'plugin_manager/addCard', { plugin_id: notes, vars: { callback: 'count', callback_type: 'html', label: '', text_color: 'red;x:y', level: 'robot' } });
    expect(bad.json.errors).to.deep.equal({
      level: { valid: 'A level must be one of: client, staff.' },
      callback_type: { valid: 'A callback type must be one of: value.' },
      label: { empty: 'Please enter a label.' },
      text_color: { valid: 'The text colour must be #rgb or #rrggbb.' },
    });
    const image = await call(server, 'POST', 'plugin_manager/addCard', {
      plugin_id: notes,
      vars: { callback: 'count', label: 'Notes', background_type: 'image', background: 'http://x.example/a.png' },
    });
    expect(image.json.errors).to.deep.equal({ background: { valid: 'An image background must be an https address.' } });
    const id = await ok(server, 'POST', 'plugin_manager/addCard', { plugin_id: notes, vars: { callback: ['this', 'count'], label: 'Notes', text_color: '#fff', background: '#123456' } });
    const card = await ok(server, 'GET', 'plugin_manager/getCard', { plugin_id: notes, callback: 'count', level: 'client' });
    expect(card).to.deep.equal({
      id,
      plugin_id: notes,
      plugin_dir: 'notes',
      level: 'client',
      callback: 'count',
      callback_type: 'value',
      label: 'Notes',
      link: null,
      text_color: '#fff',
      background: '#123456',
      background_type: 'color',
      enabled: 1,
    });
    const twice = await call(server, 'POST', 'plugin_manager/addCard', { plugin_id: notes, vars: { callback: 'count', label: 'Again' } });
    expect(twice.json.errors).to.deep.equal({ callback: { unique: 'The plugin already has a card with this callback at this level.' } });
    await ok(server, 'PUT', 'plugin_manager/editCard', { plugin_id: notes, callback: 'count', level: 'client', vars: { label: 'Open notes', enabled: '0' } });
    const missing = await call(server, 'PUT', 'plugin_manager/editCard', { plugin_id: notes, callback: 'count', level: 'staff', vars: { label: 'x' } });
    expect(missing.json.errors).to.deep.equal({ callback: { exists: 'The plugin has no card with this callback at this level.' } });
    expect((await ok(server, 'GET', 'plugin_manager/getCards', { company_id: 1, level: 'client', enabled: '0' })).map((c: any) => [c.id, c.label])).to.deep.equal([[id, 'Open notes']]);
    expect(await ok(server, 'GET', 'plugin_manager/getCards', { company_id: 1, enabled: '1' })).to.deep.equal([]);
    await ok(server, 'DELETE', 'plugin_manager/deleteCard', { plugin_id: notes, callback: 'count' });
    expect(await ok(server, 'GET', 'plugin_manager/getAllCards', { plugin_id: notes })).to.deep.equal([]);
  });

  it("subscribes only to events Tally emits that the manifest lists, and a disabled subscription stops the plugin's deliveries", async () => {
    const consumer = server.installation.container.resolve(PluginEventConsumer);
    const unknown = await call(server, 'POST', 'plugin_manager/addEvent', { plugin_id: notes, vars: { event: 'Orders.shipped' } });
    expect(unknown.json.errors).to.deep.equal({ event: { valid: '"Orders.shipped" is not an event Tally emits (docs/events.md lists them).' } });
    const unlisted = await call(server, 'POST', 'plugin_manager/addEvent', { plugin_id: notes, vars: { event: 'Invoices.add' } });
    expect(unlisted.json.errors).to.deep.equal({ event: { manifest: 'The plugin\'s manifest does not list "Invoices.add" in its events, so it has no handler for it.' } });
    expect(await ok(server, 'POST', 'plugin_manager/addEvent', { plugin_id: notes, vars: { event: 'Clients.add' } })).to.equal(null);
    expect(await ok(server, 'GET', 'plugin_manager/getEvent', { plugin_id: notes, event: 'Clients.add' })).to.deep.equal({
      plugin_id: notes,
      plugin_dir: 'notes',
      event: 'Clients.add',
      callback: 'Clients.add',
      enabled: 1,
    });
    expect(await consumer.subscribers(event('Clients.add', 1))).to.deep.equal(['notes']);
    await ok(server, 'PUT', 'plugin_manager/editEvent', { plugin_id: notes, event: 'Clients.add', vars: { enabled: '0' } });
    expect(await consumer.subscribers(event('Clients.add', 1)), 'unsubscribed').to.deep.equal([]);
    expect(await consumer.subscribers(event('Services.suspend', 1)), 'its other events still come').to.deep.equal(['notes']);
    expect(await consumer.subscribers(event('Clients.add', other.id)), "the other company's subscription is its own").to.deep.equal(['notes']);
    expect((await ok(server, 'GET', 'plugin_manager/getEvents', { company_id: 1, event: 'Clients.add', enabled: '0' })).map((e: any) => e.plugin_id)).to.deep.equal([notes]);
    expect(await ok(server, 'GET', 'plugin_manager/getEvents', { company_id: 1, event: 'Clients.add', enabled: '1' })).to.deep.equal([]);
    await ok(server, 'DELETE', 'plugin_manager/deleteEvent', { plugin_id: notes, event: 'Clients.add' });
    expect(await consumer.subscribers(event('Clients.add', 1))).to.deep.equal(['notes']);
    expect(await ok(server, 'GET', 'plugin_manager/getAllEvents', { plugin_id: notes })).to.deep.equal([]);
  });

  it('keeps messages per action and permission groups with their permissions', async () => {
    const empty = await call(server, 'POST', 'plugin_manager/addMessage', { plugin_id: notes, vars: { action: 'notes_added', type: 'client' } });
    expect(empty.json.errors).to.deep.equal({ content: { empty: 'Please enter the message text for at least one messenger type: vars[content][sms]=...' } });
    const message = await ok(server, 'POST', 'plugin_manager/addMessage', {
      plugin_id: notes,
      vars: { action: 'notes_added', type: 'client', tags: '{client.id_code}', content: { sms: 'A note was added' } },
    });
    await ok(server, 'PUT', 'plugin_manager/editMessage', { plugin_id: notes, vars: { content: { sms: 'New note' } }, message_id: message });
    expect(await ok(server, 'GET', 'plugin_manager/getMessages', { plugin_id: notes })).to.deep.equal([
      { id: message, plugin_id: notes, plugin_dir: 'notes', action: 'notes_added', type: 'client', tags: '{client.id_code}', content: { sms: 'New note' } },
    ]);
    const group = await ok(server, 'POST', 'plugin_manager/addPermissionGroup', { plugin_id: notes, vars: { name: 'Notes', level: 'staff', alias: 'notes.admin_main' } });
    const orphan = await call(server, 'POST', 'plugin_manager/addPermission', { plugin_id: notes, vars: { group_alias: 'nowhere', name: 'Read', alias: 'notes.admin_main', action: '*' } });
    expect(orphan.json.errors).to.deep.equal({ group_alias: { exists: 'The plugin has no permission group with this alias.' } });
    const permission = await ok(server, 'POST', 'plugin_manager/addPermission', { plugin_id: notes, vars: { group_alias: 'notes.admin_main', name: 'Read', alias: 'notes.admin_main', action: '*' } });
    expect(await ok(server, 'GET', 'plugin_manager/getPermissionGroups', { plugin_id: notes })).to.deep.equal([
      {
        id: group,
        plugin_id: notes,
        name: 'Notes',
        level: 'staff',
        alias: 'notes.admin_main',
        plugin_dir: 'notes',
        permissions: [{ id: permission, group_id: group, name: 'Read', alias: 'notes.admin_main', action: '*' }],
      },
    ]);
    await ok(server, 'DELETE', 'plugin_manager/deletePermission', { plugin_id: notes, alias: 'notes.admin_main', action: '*' });
    expect((await ok(server, 'GET', 'plugin_manager/getPermissionGroups', { plugin_id: notes }))[0].permissions).to.deep.equal([]);
    await ok(server, 'DELETE', 'plugin_manager/deletePermissionGroup', { plugin_id: notes, alias: 'notes.admin_main' });
    expect(await ok(server, 'GET', 'plugin_manager/getPermissionGroups', { plugin_id: notes })).to.deep.equal([]);
  });

  it("never shows or changes another company's plugin's registrations", async () => {
    const action = await ok(server, 'POST', 'plugin_manager/addAction', { plugin_id: notes, vars: { url: '/admin/mine', name: 'Mine' } });
    await ok(server, 'POST', 'plugin_manager/addCard', { plugin_id: notes, vars: { callback: 'mine', label: 'Mine' } });
    await ok(server, 'POST', 'plugin_manager/addEvent', { plugin_id: notes, vars: { event: 'Services.suspend', enabled: '1' } });
    await ok(server, 'POST', 'plugin_manager/addMessage', { plugin_id: notes, vars: { action: 'mine_only', type: 'staff', content: { sms: 'x' } } });
    const invalid = { plugin_id: { exists: 'Invalid plugin ID.' } };
    for (const [verb, method, params] of [
      ['POST', 'addAction', { vars: { url: '/x', name: 'x' } }],
      ['DELETE', 'deleteActions', {}],
      ['POST', 'addCard', { vars: { callback: 'x', label: 'x' } }],
      ['PUT', 'editCard', { callback: 'mine', level: 'client', vars: { label: 'Theirs' } }],
      ['DELETE', 'deleteCard', {}],
      ['POST', 'addEvent', { vars: { event: 'Clients.add' } }],
      ['PUT', 'editEvent', { event: 'Services.suspend', vars: { enabled: '0' } }],
      ['DELETE', 'deleteEvent', { event: 'Services.suspend' }],
      ['POST', 'addMessage', { vars: { action: 'theirs', type: 'staff', content: { sms: 'x' } } }],
      ['POST', 'addPermissionGroup', { vars: { name: 'x', level: 'staff', alias: 'x' } }],
      ['DELETE', 'deletePermissionGroup', { alias: 'x' }],
    ] as const) {
      const res = await call(server, verb, `plugin_manager/${method}`, { plugin_id: notes, ...params }, other.auth);
      expect([res.status, res.json.errors], method).to.deep.equal([400, invalid]);
    }
    await ok(server, 'DELETE', 'plugin_manager/deleteMessage', { action: 'mine_only' }, other.auth);
    expect(await ok(server, 'GET', 'plugin_manager/getAction', { plugin_id: notes, action: 'nav_staff', uri: '/admin/mine' }, other.auth)).to.equal(false);
    expect(await ok(server, 'GET', 'plugin_manager/getAllActions', { plugin_id: notes }, other.auth)).to.deep.equal([]);
    expect(await ok(server, 'GET', 'plugin_manager/getActions', { company_id: 1, action: 'nav_staff' }, other.auth)).to.deep.equal([]);
    expect(await ok(server, 'GET', 'plugin_manager/getCard', { plugin_id: notes, callback: 'mine' }, other.auth)).to.equal(false);
    expect(await ok(server, 'GET', 'plugin_manager/getCards', { company_id: 1 }, other.auth)).to.deep.equal([]);
    expect(await ok(server, 'GET', 'plugin_manager/getEvent', { plugin_id: notes, event: 'Services.suspend' }, other.auth)).to.equal(false);
    expect(await ok(server, 'GET', 'plugin_manager/getEvents', { company_id: 1, event: 'Services.suspend' }, other.auth)).to.deep.equal([]);
    expect(await ok(server, 'GET', 'plugin_manager/getMessages', { plugin_id: notes }, other.auth)).to.deep.equal([]);
    // Their own plugin shows only their own rows.
    expect(await ok(server, 'GET', 'plugin_manager/getAllActions', { plugin_id: theirs }, other.auth)).to.deep.equal([]);
    expect(await ok(server, 'GET', 'plugin_manager/getAllEvents', { plugin_id: theirs }, other.auth)).to.deep.equal([]);
    // Nothing of ours changed.
    expect((await ok(server, 'GET', 'plugin_manager/getAllActions', { plugin_id: notes })).map((a: any) => a.id)).to.include(action);
    expect((await ok(server, 'GET', 'plugin_manager/getCard', { plugin_id: notes, callback: 'mine' })).label).to.equal('Mine');
    expect((await ok(server, 'GET', 'plugin_manager/getEvent', { plugin_id: notes, event: 'Services.suspend' })).enabled).to.equal(1);
    expect((await ok(server, 'GET', 'plugin_manager/getMessages', { plugin_id: notes })).map((m: any) => m.action)).to.include('mine_only');
  });

  it('removes what a plugin registered when it is uninstalled', async () => {
    const quiet = await ok(server, 'POST', 'plugin_manager/add', { vars: { dir: 'quiet' } });
    await ok(server, 'POST', 'plugin_manager/addAction', { plugin_id: quiet, vars: { url: '/admin/quiet', name: 'Quiet' } });
    await ok(server, 'POST', 'plugin_manager/addCard', { plugin_id: quiet, vars: { callback: 'hush', label: 'Hush' } });
    await ok(server, 'POST', 'plugin_manager/addMessage', { plugin_id: quiet, vars: { action: 'quiet_done', type: 'staff', content: { sms: 'x' } } });
    await ok(server, 'POST', 'plugin_manager/addPermissionGroup', { plugin_id: quiet, vars: { name: 'Quiet', level: 'staff', alias: 'quiet' } });
    await ok(server, 'DELETE', 'plugin_manager/delete', { plugin_id: quiet });
    for (const table of ['plugin_actions', 'plugin_cards', 'plugin_messages', 'plugin_permission_groups'] as const) {
      const left = await server.installation.db.selectFrom(table).select('id').where('plugin_id', '=', quiet).execute();
      expect(left, table).to.deep.equal([]);
    }
    expect((await ok(server, 'GET', 'plugin_manager/getActions', { company_id: 1, action: 'nav_staff' })).map((a: any) => a.plugin_dir)).not.to.include('quiet');
  });
});
