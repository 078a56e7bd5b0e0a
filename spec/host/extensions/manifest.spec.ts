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

  it('refuses what is not an object', () => {
    for (const raw of [null, [], 'text', 3]) expect(checkManifest(raw, false).ok).to.equal(false);
  });
});
