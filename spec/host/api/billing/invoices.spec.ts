import { expect } from 'chai';
import { Credential, startTestServer, TestServer } from '../../../support/test-server';
import { addClient, addInvoice, call, getInvoice, newCompany, ok, pay } from './fixtures';

/** What invoices answer: the record, totals, numbering, timestamps, the life of an invoice, lists. */
describe('invoices over HTTP', () => {
  let server: TestServer;
  let clientId: number;
  before(async () => {
    server = await startTestServer();
    clientId = await addClient(server);
  });
  after(() => server.close());

  it('adds an invoice, returns its id, and gets it back whole', async () => {
    const id = await addInvoice(server, clientId, {
      lines: [
        { description: 'Design', amount: '100.00', qty: 2 },
        { description: 'Hosting', amount: '9.99' },
      ],
      delivery: ['email', 'paper'],
    });
    expect(id).to.be.a('number');
    const invoice = await getInvoice(server, id);
    expect(invoice).to.deep.include({
      id,
      client_id: clientId,
      status: 'active',
      currency: 'USD',
      subtotal: '209.9900',
      tax: '0.0000',
      total: '209.9900',
      paid: '0.0000',
      due: '209.9900',
      date_billed: '2024-03-01 12:00:00',
      date_due: '2024-03-31 12:00:00',
      date_closed: null,
      delivery: ['email', 'paper'],
      taxes: [],
    });
    expect(invoice.number).to.match(/^\d+$/);
    expect(invoice.id_code).to.equal(invoice.number);
    expect(invoice.date_added).to.match(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(invoice.line_items).to.have.length(2);
    expect(invoice.line_items[0]).to.deep.include({ invoice_id: id, service_id: null, description: 'Design', qty: '2.0000', amount: '100.0000', tax: false, order: 0, total: '200.0000' });
    expect(invoice.line_items[1]).to.deep.include({ description: 'Hosting', qty: '1.0000', amount: '9.9900', order: 1, total: '9.9900' });
  });

  it('reads lines a form sent with a gap (line 1 deleted) as the lines there are, in index order', async () => {
    const body = `vars[client_id]=${clientId}&vars[date_billed]=2026-11-01&vars[date_due]=2026-12-01&vars[currency]=USD&vars[lines][2][description]=Third&vars[lines][2][amount]=3&vars[lines][0][description]=First&vars[lines][0][amount]=1`;
    const added = await server.request('POST', '/api/invoices/add.json', { body });
    expect(added.status, added.text).to.equal(200);
    const invoice = await getInvoice(server, added.json.response);
    expect(invoice.line_items.map((l: any) => [l.description, l.amount])).to.deep.equal([
      ['First', '1.0000'],
      ['Third', '3.0000'],
    ]);
  });

  it('answers false, as the reference does, for an invoice that does not exist', async () => {
    expect(await ok(server, 'GET', 'invoices/get', { invoice_id: 999999 })).to.equal(false);
  });

  it('reads zoneless timestamps in the company timezone and answers in UTC', async () => {
    const company = await newCompany(server, 'New York company');
    await ok(server, 'PUT', 'settings/set', { key: 'timezone', value: 'America/New_York' }, company.auth);
    const client = await addClient(server, {}, company.auth);
    const cases: Array<[string, string]> = [
      ['2021-12-31 12:00:00', '2021-12-31 17:00:00'],
      ['2021-12-31 12:00:00 +02:00', '2021-12-31 10:00:00'],
      ['2021-12-31 12:00:00 UTC', '2021-12-31 12:00:00'],
      ['2021-12-31T12:00:00Z', '2021-12-31 12:00:00'],
      ['2021-07-01', '2021-07-01 04:00:00'],
    ];
    for (const [given, utc] of cases) {
      const id = await addInvoice(server, client, { date_billed: given, date_due: given }, company.auth);
      const invoice = await getInvoice(server, id, company.auth);
      expect([invoice.date_billed, invoice.date_due], given).to.deep.equal([utc, utc]);
    }
  });

  it('totals each currency to its own precision', async () => {
    await ok(server, 'POST', 'currencies/add', { vars: { code: 'JPY', precision: 0, prefix: '¥' } });
    await ok(server, 'POST', 'currencies/add', { vars: { code: 'KWD', precision: 3 } });
    const yen = await getInvoice(server, await addInvoice(server, clientId, { currency: 'JPY', lines: [{ description: 'x', amount: '100.5', qty: 3 }] }));
    expect(yen).to.deep.include({ currency: 'JPY', subtotal: '302.0000', total: '302.0000', due: '302.0000' });
    const dinar = await getInvoice(server, await addInvoice(server, clientId, { currency: 'KWD', lines: [{ description: 'x', amount: '1.2345' }] }));
    expect(dinar).to.deep.include({ currency: 'KWD', subtotal: '1.2350', total: '1.2350' });
    const dollars = await getInvoice(
      server,
      await addInvoice(server, clientId, {
        lines: [
          { description: 'x', amount: '0.005' },
          { description: 'y', amount: '0.004' },
        ],
      }),
    );
    expect(dollars).to.deep.include({ subtotal: '0.0100', total: '0.0100' });
  });

  describe('numbering', () => {
    let company: { id: number; auth: Credential };
    let client: number;
    before(async () => {
      company = await newCompany(server, 'Numbered company');
      client = await addClient(server, {}, company.auth);
      await ok(server, 'PUT', 'settings/set', { key: 'invoice_format', value: 'INV-{num}' }, company.auth);
      await ok(server, 'PUT', 'settings/set', { key: 'invoice_start', value: '1000' }, company.auth);
    });
    const numberOf = async (id: number) => (await getInvoice(server, id, company.auth)).number;

    it('numbers from invoice_start in invoice_format; drafts get a number only when they stop being drafts', async () => {
      const first = await addInvoice(server, client, {}, company.auth);
      const draft = await addInvoice(server, client, { status: 'draft' }, company.auth);
      const second = await addInvoice(server, client, { status: 'proforma' }, company.auth);
      expect(await numberOf(first)).to.equal('INV-1000');
      expect(await numberOf(draft)).to.equal(null);
      expect(await numberOf(second)).to.equal('INV-1001');
      await ok(server, 'PUT', 'invoices/edit', { invoice_id: draft, vars: { status: 'active' } }, company.auth);
      expect(await numberOf(draft)).to.equal('INV-1002');
    });

    it('keeps numbers per company', async () => {
      const ownNumber = (await getInvoice(server, await addInvoice(server, clientId))).number;
      const theirs = await addInvoice(server, client, {}, company.auth);
      expect(await numberOf(theirs)).to.equal('INV-1003');
      expect(ownNumber).to.not.match(/^INV-/);
    });

    it('jumps to a raised invoice_start and never reuses a number when it is lowered', async () => {
      await ok(server, 'PUT', 'settings/set', { key: 'invoice_start', value: '2000' }, company.auth);
      expect(await numberOf(await addInvoice(server, client, {}, company.auth))).to.equal('INV-2000');
      await ok(server, 'PUT', 'settings/set', { key: 'invoice_start', value: '1' }, company.auth);
      expect(await numberOf(await addInvoice(server, client, {}, company.auth))).to.equal('INV-2001');
    });
  });

  describe('edit', () => {
    it('edits lines by id as the reference: an id changes that line, none adds one, a blank description and amount remove it; re-totals', async () => {
      const id = await addInvoice(server, clientId, {
        lines: [
          { description: 'Keep', amount: '10' },
          { description: 'Change', amount: '1' },
          { description: 'Drop', amount: '5' },
        ],
      });
      const [keep, change, drop] = (await getInvoice(server, id)).line_items;
      const lines = [
        { id: change.id, amount: '12.50', qty: 4 },
        { id: drop.id, description: '', amount: '' },
        { description: 'New', amount: '0.50' },
      ];
      expect(await ok(server, 'PUT', 'invoices/edit', { invoice_id: id, vars: { lines, delivery: ['paper'] } })).to.equal(id);
      const edited = await getInvoice(server, id);
      expect(edited).to.deep.include({ subtotal: '60.5000', total: '60.5000', due: '60.5000', delivery: ['paper'], date_billed: '2024-03-01 12:00:00' });
      expect(edited.line_items.map((l: any) => [l.id, l.description, l.qty, l.amount])).to.deep.equal([
        [keep.id, 'Keep', '1.0000', '10.0000'],
        [change.id, 'Change', '4.0000', '12.5000'],
        [edited.line_items[2].id, 'New', '1.0000', '0.5000'],
      ]);
      const foreign = await call(server, 'PUT', 'invoices/edit', { invoice_id: await addInvoice(server, clientId), vars: { lines: [{ id: keep.id, amount: '1' }, { amount: 'x' }] } });
      expect(foreign.json.errors).to.deep.equal({
        'lines[0][id]': { exists: 'Invalid line item ID.' },
        'lines[1][description]': { empty: 'Please enter a line item description.' },
        'lines[1][amount]': { format: 'The unit cost must be a number.' },
      });
    });

    it('stores and returns note_public, note_private and date_autodebit; refuses a recurring part it cannot keep', async () => {
      const id = await addInvoice(server, clientId, { note_public: 'Thank you', note_private: 'Staff only', date_autodebit: '2024-03-20 00:00:00 UTC' });
      expect(await getInvoice(server, id)).to.deep.include({ note_public: 'Thank you', note_private: 'Staff only', date_autodebit: '2024-03-20 00:00:00' });
      await ok(server, 'PUT', 'invoices/edit', { invoice_id: id, vars: { note_public: 'Changed', date_autodebit: '' } });
      expect(await getInvoice(server, id)).to.deep.include({ note_public: 'Changed', note_private: 'Staff only', date_autodebit: null });
      // Recurring invoices themselves: spec/host/api/recurring/recurring-invoices.spec.ts.
      const recurring = await call(server, 'POST', 'invoices/add', { vars: { ...(await import('./fixtures')).invoiceVars(clientId), term: 1, period: 'quarter' } });
      expect(recurring.json.errors).to.deep.equal({ period: { format: 'The period is invalid.' } });
    });

    it('checks a new due date against the stored billed date', async () => {
      const id = await addInvoice(server, clientId);
      const res = await call(server, 'PUT', 'invoices/edit', { invoice_id: id, vars: { date_due: '2024-02-01 00:00:00 UTC' } });
      expect(res.status).to.equal(400);
      expect(res.json.errors).to.deep.equal({ date_due: { after_billed: 'The date due must be on or after the date billed.' } });
    });

    it('refuses an edit of a missing invoice, of a void one, and a step back from active to draft', async () => {
      expect((await call(server, 'PUT', 'invoices/edit', { invoice_id: 999999, vars: { status: 'active' } })).json.errors).to.deep.equal({ invoice_id: { exists: 'Invalid invoice ID.' } });
      const active = await addInvoice(server, clientId);
      expect((await call(server, 'PUT', 'invoices/edit', { invoice_id: active, vars: { status: 'draft' } })).json.errors).to.have.nested.property('status.transition');
      await ok(server, 'POST', 'invoices/void', { invoice_id: active });
      expect((await call(server, 'PUT', 'invoices/edit', { invoice_id: active, vars: { date_due: '2025-01-01 00:00:00 UTC' } })).json.errors).to.have.nested.property('invoice_id.void');
    });

    it('refuses a total below what has been paid, and a new client or currency once paid', async () => {
      const id = await addInvoice(server, clientId, { lines: [{ description: 'x', amount: '100' }] });
      await pay(server, { client_id: clientId, amount: '60', invoices: [{ invoice_id: id }] });
      const line = (await getInvoice(server, id)).line_items[0].id;
      const lower = await call(server, 'PUT', 'invoices/edit', { invoice_id: id, vars: { lines: [{ id: line, amount: '50' }] } });
      expect(lower.status).to.equal(400);
      expect(lower.json.errors).to.have.nested.property('total.paid');
      const moved = await call(server, 'PUT', 'invoices/edit', { invoice_id: id, vars: { client_id: await addClient(server), currency: 'EUR' } });
      expect(moved.json.errors).to.have.keys('client_id', 'currency');
      // Lowering to exactly what was paid closes it.
      await ok(server, 'PUT', 'invoices/edit', { invoice_id: id, vars: { lines: [{ id: line, amount: '60' }] } });
      const closed = await getInvoice(server, id);
      expect(closed).to.deep.include({ total: '60.0000', paid: '60.0000', due: '0.0000' });
      expect(closed.date_closed).to.be.a('string');
    });
  });

  describe('merge and split', () => {
    it("refuses paid invoices, another client's, and another company's; writes nothing then", async () => {
      const [a, b] = [await addInvoice(server, clientId), await addInvoice(server, clientId)];
      await pay(server, { client_id: clientId, amount: '1', invoices: [{ invoice_id: b }] });
      const other = await addInvoice(server, await addClient(server));
      const company = await newCompany(server, 'Merging company');
      const theirs = await addInvoice(server, await addClient(server, {}, company.auth), {}, company.auth);
      const res = await call(server, 'POST', 'invoices/merge', { invoice_ids: [a, b, other, theirs] });
      expect(res.json.errors).to.have.keys('invoice_ids[1]', 'invoice_ids[2]', 'invoice_ids[3]');
      expect(res.json.errors['invoice_ids[3]']).to.deep.equal({ exists: 'Invalid invoice ID.' });
      expect((await getInvoice(server, a)).status).to.equal('active');
      const lines = (await getInvoice(server, a)).line_items;
      expect((await call(server, 'POST', 'invoices/split', { invoice_id: a, line_items: lines.map((l: any) => l.id) })).json.errors).to.have.nested.property('line_items.count');
    });
  });

  describe('void and delete', () => {
    it('voids an invoice: it keeps its number, closes, and its payments return to the client as credit', async () => {
      const client = await addClient(server);
      const id = await addInvoice(server, client, { lines: [{ description: 'x', amount: '80' }] });
      const before = await getInvoice(server, id);
      await pay(server, { client_id: client, amount: '30', invoices: [{ invoice_id: id }] });
      const voided = await ok(server, 'POST', 'invoices/void', { invoice_id: id });
      expect(voided).to.deep.include({ status: 'void', number: before.number, paid: '0.0000' });
      expect(voided.date_closed).to.be.a('string');
      expect(await ok(server, 'GET', 'transactions/getCredit', { client_id: client, currency: 'USD' })).to.equal('30.0000');
      const payOnVoid = await call(server, 'POST', 'transactions/add', { vars: { client_id: client, amount: '1', currency: 'USD', invoices: [{ invoice_id: id }] } });
      expect(payOnVoid.json.errors).to.deep.equal({ 'invoices[0][invoice_id]': { status: 'Payments apply only to active or proforma invoices.' } });
    });

    it('voids through invoices/edit with vars[status]=void, as the reference does', async () => {
      const id = await addInvoice(server, clientId);
      expect(await ok(server, 'PUT', 'invoices/edit', { invoice_id: id, vars: { status: 'void' } })).to.equal(id);
      expect((await getInvoice(server, id)).status).to.equal('void');
    });

    it('deletes drafts only', async () => {
      const draft = await addInvoice(server, clientId, { status: 'draft' });
      const active = await addInvoice(server, clientId);
      const refused = await call(server, 'DELETE', 'invoices/delete', { invoice_id: active });
      expect(refused.status).to.equal(400);
      expect(refused.json.errors).to.have.nested.property('invoice_id.draft');
      expect(await ok(server, 'DELETE', 'invoices/delete', { invoice_id: draft })).to.equal(null);
      expect(await ok(server, 'GET', 'invoices/get', { invoice_id: draft })).to.equal(false);
      const another = await addInvoice(server, clientId, { status: 'draft' });
      expect(await ok(server, 'DELETE', 'invoices/deleteDraft', { invoice_id: another })).to.equal(null);
      expect((await call(server, 'DELETE', 'invoices/delete', { invoice_id: draft })).json.errors).to.deep.equal({ invoice_id: { exists: 'Invalid invoice ID.' } });
    });
  });

  describe('lists and company isolation', () => {
    let company: { id: number; auth: Credential };
    let client: number;
    const ids: number[] = [];
    before(async () => {
      company = await newCompany(server, 'Listed company');
      client = await addClient(server, {}, company.auth);
      ids.push(await addInvoice(server, client, { date_billed: '2024-01-01 00:00:00 UTC', date_due: '2024-01-01 00:00:00 UTC' }, company.auth));
      ids.push(await addInvoice(server, client, { date_billed: '2024-02-01 00:00:00 UTC', date_due: '2024-02-01 00:00:00 UTC', status: 'draft' }, company.auth));
      ids.push(await addInvoice(server, client, { date_billed: '2024-03-01 00:00:00 UTC', lines: [{ description: 'x', amount: '5' }] }, company.auth));
      await pay(server, { client_id: client, amount: '5', invoices: [{ invoice_id: ids[2] }] }, company.auth);
    });

    it("lists open invoices by due date by default, with the reference's status filters and order_by", async () => {
      const list = (params: Record<string, unknown>) => ok(server, 'GET', 'invoices/getList', params, company.auth);
      const all = await list({ status: 'all', order_by: { date_billed: 'DESC' } });
      expect(all.map((i: any) => i.id)).to.deep.equal([ids[2], ids[1], ids[0]]);
      expect((await list({})).map((i: any) => i.id)).to.deep.equal([ids[0]]);
      expect((await list({ status: 'past_due' })).map((i: any) => i.id)).to.deep.equal([ids[0]]);
      expect((await call(server, 'GET', 'invoices/getList', { order_by: { 'id; drop table invoices': 'ASC' } }, company.auth)).json.errors).to.have.nested.property('order_by.format');
      expect(all[0]).to.include({ total: '5.0000', paid: '5.0000', due: '0.0000' });
      expect(all[0]).to.not.have.property('lines');
      expect((await list({ status: 'draft' })).map((i: any) => i.id)).to.deep.equal([ids[1]]);
      expect((await list({ status: 'open' })).map((i: any) => i.id)).to.deep.equal([ids[0]]);
      expect((await list({ status: 'closed' })).map((i: any) => i.id)).to.deep.equal([ids[2]]);
      expect(await list({ client_id: client, page: 2 })).to.deep.equal([]);
      expect(await ok(server, 'GET', 'invoices/getListCount', { client_id: client, status: 'all' }, company.auth)).to.equal(3);
      expect((await ok(server, 'GET', 'invoices/getAll', { client_id: client, status: 'all' }, company.auth)).map((i: any) => i.id)).to.deep.equal([ids[0], ids[1], ids[2]]);
      expect(await ok(server, 'GET', 'invoices/getListCount', { status: 'open' }, company.auth)).to.equal(1);
      expect((await call(server, 'GET', 'invoices/getList', { status: 'unpaid' }, company.auth)).json.errors).to.deep.equal({ status: { format: 'Invalid status.' } });
    });

    it("never shows one company's invoices to another company's credentials", async () => {
      expect(await ok(server, 'GET', 'invoices/get', { invoice_id: ids[0] })).to.equal(false);
      expect(await ok(server, 'GET', 'invoices/getAll', { client_id: client, status: 'all' })).to.deep.equal([]);
      const mine = await ok(server, 'GET', 'invoices/getList', { client_id: client });
      expect(mine).to.deep.equal([]);
      expect((await call(server, 'POST', 'invoices/void', { invoice_id: ids[0] })).json.errors).to.deep.equal({ invoice_id: { exists: 'Invalid invoice ID.' } });
      expect((await call(server, 'PUT', 'invoices/edit', { invoice_id: ids[0], vars: {} })).status).to.equal(400);
      expect((await getInvoice(server, ids[0], company.auth)).status).to.equal('active');
    });
  });

  describe('pay tokens (createPayHash, verifyPayHash)', () => {
    // The system key is the installation's: a token minted for any ids was good in every company,
    // so company 2 could mint the token that opens company 1's invoice on company 1's pay page, or
    // one for an invoice id not issued yet.
    it("are minted and verified only for an invoice of the caller's company and of the client named", async () => {
      const invoiceId = await addInvoice(server, clientId);
      const other = await newCompany(server, 'Pay token minter');
      const theirClient = await addClient(server, {}, other.auth);
      const neighbour = await addClient(server);
      const token = await ok(server, 'GET', 'invoices/createPayHash', { client_id: clientId, invoice_id: invoiceId });
      expect(await ok(server, 'GET', 'invoices/verifyPayHash', { client_id: clientId, invoice_id: invoiceId, hash: token })).to.equal(true);

      const refused = { invoice_id: { exists: 'Invalid invoice ID.' } };
      for (const [auth, client, invoice] of [
        [other.auth, clientId, invoiceId],
        [other.auth, theirClient, invoiceId],
        [other.auth, clientId, invoiceId + 1000],
        [undefined, clientId, invoiceId + 1000],
        [undefined, neighbour, invoiceId],
      ] as Array<[Credential | undefined, number, number]>) {
        const res = await call(server, 'GET', 'invoices/createPayHash', { client_id: client, invoice_id: invoice }, auth);
        expect(res.status, `${client}/${invoice}: ${res.text}`).to.equal(400);
        expect(res.json.errors).to.deep.equal(refused);
      }
      // Company 2 holds the right token (a company 1 application showed it) yet learns nothing from it.
      expect(await ok(server, 'GET', 'invoices/verifyPayHash', { client_id: clientId, invoice_id: invoiceId, hash: token }, other.auth)).to.equal(false);
      expect(await ok(server, 'GET', 'invoices/verifyPayHash', { client_id: neighbour, invoice_id: invoiceId, hash: token })).to.equal(false);
    });

    it('cannot be made with encryption/systemHash, which any company may call with the same system key', async () => {
      const invoiceId = await addInvoice(server, clientId);
      const other = await newCompany(server, 'Pay token hasher');
      const token = await ok(server, 'GET', 'invoices/createPayHash', { client_id: clientId, invoice_id: invoiceId });
      for (const value of [`pay:c=${clientId}|i=${invoiceId}`, `pay:co=1|c=${clientId}|i=${invoiceId}`]) {
        for (const algorithm of ['sha256', 'sha512', 'md5']) {
          const made = String(await ok(server, 'POST', 'encryption/systemHash', { value, algorithm }, other.auth)).slice(0, 32);
          expect(made, `${algorithm}(${value})`).to.not.equal(token);
          expect(await ok(server, 'GET', 'invoices/verifyPayHash', { client_id: clientId, invoice_id: invoiceId, hash: made }), `${algorithm}(${value})`).to.equal(false);
        }
      }
    });
  });
});
