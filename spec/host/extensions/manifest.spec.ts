import { expect } from 'chai';
import { checkManifest } from '../../../host/extensions/manifest';

describe('extension manifests (config.json)', () => {
  const good = { name: 'Support Manager', version: '1.2.0', description: 'Tickets', authors: [{ name: 'Tally', url: 'https://example.com' }], logo: 'logo.png' };

  it('accepts the reference fields and ignores unknown ones such as logo', () => {
    const checked = checkManifest(good, false);
    expect(checked.ok).to.equal(true);
    if (checked.ok) expect(checked.manifest).to.include({ name: 'Support Manager', version: '1.2.0', description: 'Tickets' });
  });

  it('lists every problem at once', () => {
    const checked = checkManifest({ version: 'one', authors: 'me', depends: ['Bad-Name'], settings: { key: { secret: 'yes' } } }, false);
    expect(checked.ok).to.equal(false);
    if (!checked.ok) {
      expect(checked.problems).to.deep.equal([
        '"name" is required.',
        '"version" must look like "1.0.0", not "one".',
        '"authors" must be a list.',
        '"depends[0]" must be an extension\'s directory name (lowercase letters, digits, _).',
        '"settings.key": "label" is a string, "secret" and "required" are true or false.',
      ]);
    }
  });

  it("reads a module's row fields as settings are declared, naming what is wrong", () => {
    const checked = checkManifest({ ...good, row_fields: { hostname: { label: 'a hostname', required: true }, password: { secret: true } } }, false);
    expect(checked.ok && checked.manifest.rowFields).to.deep.equal({ hostname: { label: 'a hostname', secret: false, required: true }, password: { label: undefined, secret: true, required: false } });
    const bad = checkManifest({ ...good, row_fields: { 'Host-Name': {}, port: { required: 'yes' } } }, false);
    expect(bad.ok || bad.problems).to.deep.equal([
      '"row_fields.Host-Name": field names are lowercase letters, digits and _.',
      '"row_fields.port": "label" is a string, "secret" and "required" are true or false.',
    ]);
    expect(checkManifest({ ...good, row_fields: ['hostname'] }, false).ok || 'refused').to.equal('refused');
  });

  it('requires ISO 4217 currencies of gateways only', () => {
    expect(checkManifest(good, true).ok).to.equal(false);
    expect(checkManifest({ ...good, currencies: ['USD', 'EUR'] }, true).ok).to.equal(true);
    const lower = checkManifest({ ...good, currencies: ['usd'] }, true);
    expect(lower.ok || lower.problems).to.deep.equal(['"currencies[0]" must be an ISO 4217 code such as "USD".']);
    const plugin = checkManifest({ ...good, currencies: ['USD'] }, false);
    expect(plugin.ok || plugin.problems).to.deep.equal(['"currencies" is only for gateways.']);
  });

  it('reads the capabilities it asks for: uses, hosts, tables', () => {
    const checked = checkManifest({ ...good, uses: ['clients.get', 'support_manager.tickets.get'], hosts: ['API.Example.com'], tables: ['support_tickets'] }, false);
    expect(checked.ok && checked.manifest).to.deep.include({ uses: ['clients.get', 'support_manager.tickets.get'], hosts: ['api.example.com'], tables: ['support_tickets'] });
    const bad = checkManifest({ ...good, uses: ['clients'], hosts: ['https://api.example.com/x'], tables: ['main.settings'] }, false);
    expect(bad.ok || bad.problems).to.have.length(3);
    const none = checkManifest(good, false);
    expect(none.ok && none.manifest).to.deep.include({ uses: [], hosts: [], tables: [] });
  });

  it('reads a host with the port it may reach, and refuses a port out of range', () => {
    const checked = checkManifest({ ...good, hosts: ['API.Example.com:8443', '203.0.113.9:65535'] }, false);
    expect(checked.ok && checked.manifest).to.deep.include({ hosts: ['api.example.com:8443', '203.0.113.9:65535'] });
    for (const host of ['api.example.com:0', 'api.example.com:65536', 'api.example.com:08', 'api.example.com:', '[::1]:443', 'api.example.com:1:2']) {
      expect(checkManifest({ ...good, hosts: [host] }, false).ok, host).to.equal(false);
    }
  });

  it('reads the events it subscribes to and the tasks it schedules, refusing malformed ones with the fix', () => {
    const checked = checkManifest({ ...good, events: ['Services.suspend', 'Invoices.add'], tasks: { sync: 'every 15 minutes', nightly: 'daily at 03:30', once: 'every 1 minute' } }, false);
    expect(checked.ok && checked.manifest).to.deep.include({
      events: ['Services.suspend', 'Invoices.add'],
      tasks: [
        { name: 'sync', schedule: 'every 15 minutes', every: 15 },
        { name: 'nightly', schedule: 'daily at 03:30', dailyAt: '03:30' },
        { name: 'once', schedule: 'every 1 minute', every: 1 },
      ],
    });
    const bad = checkManifest(
      {
        ...good,
        events: ['services.suspend', 'Services.suspend', 'Services.suspend', 3],
        tasks: { Sync: 'every 5 minutes', late: 'daily at 24:00', never: 'every 0 minutes', long: 'every 1441 minutes', cron: '*/5 * * * *' },
      },
      false,
    );
    expect(bad.ok || bad.problems).to.deep.equal([
      '"events[0]" must name an event type Tally emits, such as "Services.suspend" (docs/events.md lists them).',
      '"events" lists "Services.suspend" twice.',
      '"events[3]" must name an event type Tally emits, such as "Services.suspend" (docs/events.md lists them).',
      '"tasks.Sync": task names are lowercase letters, digits and _, starting with a letter.',
      '"tasks.late" must be "every N minutes" (1 to 1440) or "daily at HH:MM" (the company\'s time), not "daily at 24:00".',
      '"tasks.never" must be "every N minutes" (1 to 1440) or "daily at HH:MM" (the company\'s time), not "every 0 minutes".',
      '"tasks.long" must be "every N minutes" (1 to 1440) or "daily at HH:MM" (the company\'s time), not "every 1441 minutes".',
      '"tasks.cron" must be "every N minutes" (1 to 1440) or "daily at HH:MM" (the company\'s time), not "*/5 * * * *".',
    ]);
    expect(checkManifest({ ...good, events: 'Services.suspend', tasks: [] }, false).ok).to.equal(false);
  });

  it('refuses what is not an object', () => {
    for (const raw of [null, [], 'text', 3]) expect(checkManifest(raw, false).ok).to.equal(false);
  });

  it("takes a merchant gateway's card_form only with an https script on its origins and a declared, non-secret key setting", () => {
    const gateway = {
      ...good,
      currencies: ['USD'],
      settings: { publishable_key: { required: false }, secret_key: { secret: true } },
      card_form: {
        library: 'stripe-js',
        script: 'https://js.stripe.com/v3/',
        publishable_key_setting: 'publishable_key',
        script_origins: ['https://js.stripe.com'],
        frame_origins: ['https://js.stripe.com'],
        connect_origins: ['https://api.stripe.com'],
      },
    };
    const checked = checkManifest(gateway, true);
    expect(checked.ok).to.equal(true);
    if (checked.ok) expect(checked.manifest.cardForm).to.deep.include({ library: 'stripe-js', publishableKeySetting: 'publishable_key', scriptOrigins: ['https://js.stripe.com'] });
    const refused = (cardForm: Record<string, unknown>, isGateway = true) => {
      const result = checkManifest({ ...gateway, card_form: { ...gateway.card_form, ...cardForm } }, isGateway);
      return result.ok ? [] : result.problems;
    };
    expect(refused({ publishable_key_setting: 'secret_key' })).to.have.length(1);
    expect(refused({ publishable_key_setting: 'missing' })).to.have.length(1);
    expect(refused({ script: 'http://js.stripe.com/v3/' })).to.have.length(1);
    expect(refused({ script: 'https://evil.example.com/v3/' })).to.have.length(1);
    expect(refused({ frame_origins: ["https://js.stripe.com; script-src 'unsafe-inline'"] })).to.have.length(1);
    expect(refused({ connect_origins: ['*'] })).to.have.length(1);
    expect(refused({ library: 'other' })).to.have.length(1);
    expect(refused({}, false)).to.include('"card_form" is only for merchant gateways.');
  });
});
