import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { runCli } from '../../support/cli';
import { startTestServer, TestServer } from '../../support/test-server';
import { addClient, addInvoice, newCompany, ok } from '../api/billing/fixtures';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** `tally invoices pdf|set-logo|set-font`, against a running server's database. */
describe('tally invoices (PDF invoices from the command line)', () => {
  let server: TestServer;
  let dir: string;
  before(async () => {
    server = await startTestServer();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-pdf-'));
  });
  after(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const cli = (...args: string[]) => runCli(server.database.url, args);

  it('writes an invoice to a file, the same bytes invoices/getPdf answers', async () => {
    const invoiceId = await addInvoice(server, await addClient(server));
    const file = path.join(dir, 'out.pdf');
    const res = await cli('invoices', 'pdf', String(invoiceId), '--company', '1', '--output', file);
    expect(res.code, res.stderr).to.equal(0);
    expect(res.stdout).to.include(file);
    const api = await ok(server, 'GET', 'invoices/getPdf', { invoice_id: invoiceId });
    expect(fs.readFileSync(file).equals(Buffer.from(api.pdf, 'base64'))).to.equal(true);
  });

  it("refuses a missing invoice and another company's, writing nothing", async () => {
    const other = await newCompany(server, 'CLI other');
    const theirs = await addInvoice(server, await addClient(server, {}, other.auth), {}, other.auth);
    for (const id of [theirs, 99999999]) {
      const file = path.join(dir, `missing-${id}.pdf`);
      const res = await cli('invoices', 'pdf', String(id), '--company', '1', '--output', file);
      expect(res.code).to.equal(1);
      expect(res.stderr).to.include('Invalid invoice ID.');
      expect(fs.existsSync(file)).to.equal(false);
    }
  });

  it('sets the logo from an image file and refuses a file that is not one', async () => {
    const logo = path.join(dir, 'logo.png');
    fs.writeFileSync(logo, Buffer.from(PNG, 'base64'));
    const set = await cli('invoices', 'set-logo', logo);
    expect(set.code, set.stderr).to.equal(0);
    expect((await ok(server, 'GET', 'invoices/getPdfFiles')).map((f: { kind: string }) => f.kind)).to.deep.equal(['logo']);
    const text = path.join(dir, 'notes.txt');
    fs.writeFileSync(text, 'not an image');
    const refused = await cli('invoices', 'set-logo', text);
    expect(refused.code).to.equal(1);
    expect(refused.stderr).to.include('The logo must be a PNG or JPEG image.');
  });
});
