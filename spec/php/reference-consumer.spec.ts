import { expect } from 'chai';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { phpAvailable } from '../support/php';
import { SHIPPED_EXTENSIONS } from '../extensions/shipped';
import { startTestServer, TestServer } from '../support/test-server';

// The script is not compiled: it is read from the source tree beside this spec's source.
const SCRIPT = path.resolve(__dirname, '../../../spec/php/reference_consumer.php');

interface Seen {
  calls: Record<string, { status: number; ok: boolean; raw?: string }>;
  shapes: Record<string, string[]>;
  facts: Record<string, any>;
}

function runConsumer(server: TestServer, other: { user: string; key: string }, auth: string): Promise<Seen> {
  return new Promise((resolve, reject) => {
    const child = spawn('php', [SCRIPT, server.url, server.credential.user, server.credential.key, other.user, other.key, auth]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (status) => (status === 0 ? resolve(JSON.parse(stdout)) : reject(new Error(`php exited ${status}: ${stderr}${stdout}`))));
  });
}

/**
 * A consumer written against the reference system, as its PHP SDK calls it, driving every method of
 * the models Tally shares with it and checking each record against REFERENCE-MODELS.md §2.
 */
for (const auth of ['basic', 'headers', 'service']) {
  describe(`a reference-system consumer in PHP (${auth === 'basic' ? 'HTTP Basic, the 2013 SDK' : auth === 'headers' ? 'BLESTA-API-* headers, the current SDK' : 'SERVICE-API-* headers'})`, function () {
    // A few hundred calls, each a PHP request over HTTP: on a busy machine with PostgreSQL, more than mocha's default.
    this.timeout(120_000);
    let server: TestServer;
    let seen: Seen;
    before(async function () {
      if (!phpAvailable) return this.skip();
      server = await startTestServer({ extensionsDir: SHIPPED_EXTENSIONS });
      const other = await server.request('POST', '/api/companies/add.json', { body: 'vars[name]=Other', auth: server.installationCredential });
      expect(other.status, other.text).to.equal(200);
      expect(other.json.response).to.equal(2);
      seen = await runConsumer(server, await server.credentialFor(2), auth);
    });
    after(() => server?.close());

    it('gets the answer the reference gives from every call', () => {
      const wrong = Object.entries(seen.calls).filter(([, c]) => !c.ok);
      expect(wrong, JSON.stringify(wrong, null, 2)).to.deep.equal([]);
      expect(Object.keys(seen.calls).length).to.be.greaterThan(150);
    });

    it('finds every field the reference documents on each record', () => {
      expect(seen.shapes).to.have.keys(
        'client_group',
        'client',
        'client_note',
        'contact',
        'contact_number',
        'currency',
        'invoice',
        'line_item',
        'tax',
        'transaction',
        'transaction_applied',
        'user',
        'package',
        'package_pricing',
        'coupon',
        'service',
        'service_field',
        'account',
        'recurring_invoice',
        'module_row',
        'module_group',
        'package_option',
        'service_option',
        'service_change',
      );
      for (const [record, missing] of Object.entries(seen.shapes)) expect(missing, record).to.deep.equal([]);
    });

    it('inherits settings client > group, stores invoice notes, keeps exact money and the reference number order', () => {
      expect(seen.facts.client).to.deep.equal({ language: 'en_us', inherited: '7', group: seen.facts.client.group });
      expect(seen.facts.client.group).to.be.a('number');
      expect(seen.facts.invoice).to.deep.equal({ subtotal: '115.0000', total: '125.0000', notes: ['Thank you for your business', 'Met at the conference'], qty: '1.5000' });
      expect(seen.facts.number_order).to.deep.equal(['work', 'home', 'mobile']);
      expect(seen.facts.bare).to.include({ first_name: 'Bare', status: 'inactive', id_code: '7001' });
    });

    it("reads a timestamp without a zone in the company's time zone, and one with a zone as given", () => {
      expect(seen.facts.timestamps).to.deep.equal({ local: '2021-12-31 17:00:00', offset: '2021-12-31 10:00:00', utc: '2021-12-31 12:00:00', iso: '2021-12-31 12:00:00' });
    });
  });
}
