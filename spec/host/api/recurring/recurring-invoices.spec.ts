import { expect } from 'chai';
import { Credential, TestServer } from '../../../support/test-server';
import { startTestServer } from '../../../support/test-server';
import { newCompany } from '../billing/fixtures';
import { runCli } from '../../../support/cli';
import { addClient, call, ok, runAt, setSettings } from './support';

/** A monthly recurring invoice of two lines (one taxable), billed by email, first made on `renews`. */
function recurringVars(clientId: number, renews: string, overrides: Record<string, unknown> = {}) {
  return {
    client_id: clientId,
    term: 1,
    period: 'month',
    currency: 'USD',
    date_renews: `${renews} UTC`,
    note_public: 'Thank you',
    lines: [
      { description: 'Support plan', amount: '40.00', qty: 2, tax: 'true' },
      { description: 'Backups', amount: '5.50' },
    ],
    delivery: ['email'],
    ...overrides,
  };
}

/**
 * Recurring invoices (the reference's 14 methods and invoices/add's term/period/duration), and the
 * billing run's Create Invoice making their invoices on time, once, on both databases.
 */
describe('recurring invoices: the reference methods and the billing run', function () {
  this.timeout(120_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    await setSettings(server, { inv_days_before_renewal: '2' });
  });
  after(() => server.close());

  const add = (vars: Record<string, unknown>, auth?: Credential) => ok(server, 'POST', 'invoices/addRecurring', { vars }, auth);
  const invoicesOf = (clientId: number) => ok(server, 'GET', 'invoices/getList', { client_id: clientId, status: 'all', order_by: { id: 'ASC' } });

  describe('keeping them', () => {
    it('addRecurring and getRecurring: the record, its lines, delivery methods and totals as the reference answers them', async () => {
      const clientId = await addClient(server);
      const recurId = await add(recurringVars(clientId, '2027-05-01 00:00:00', { duration: 3 }));
      const recurring = await ok(server, 'GET', 'invoices/getRecurring', { invoice_recur_id: recurId });
      expect(recurring).to.include({ id: recurId, client_id: clientId, term: 1, period: 'month', duration: 3, currency: 'USD', date_renews: '2027-05-01 00:00:00', date_last_renewed: null });
      expect(recurring).to.include({ note_public: 'Thank you', note_private: null, count: 0, subtotal: '85.5000', taxable: true, total: '85.5000' });
      expect(recurring.client_id_code).to.be.a('string').and.not.equal('');
      expect(recurring.line_items.map((l: any) => [l.description, l.qty, l.amount, l.subtotal, l.taxable])).to.deep.equal([
        ['Support plan', '2.0000', '40.0000', '80.0000', true],
        ['Backups', '1.0000', '5.5000', '5.5000', false],
      ]);
      expect(recurring.line_items.every((l: any) => l.invoice_recur_id === recurId)).to.equal(true);
      expect(recurring.delivery.map((d: any) => d.method)).to.deep.equal(['email']);
      expect(await ok(server, 'GET', 'invoices/getRecurringLineItems', { invoice_recur_id: recurId })).to.deep.equal(recurring.line_items);
      expect(await ok(server, 'GET', 'invoices/getRecurringDelivery', { invoice_recur_id: recurId })).to.deep.equal(recurring.delivery);
    });

    it('addRecurring refuses what could never renew, with the reference messages, and writes nothing', async () => {
      const before = await ok(server, 'GET', 'invoices/getRecurringCount', {});
      const empty = await call(server, 'POST', 'invoices/addRecurring', { vars: {} });
      expect(empty.status).to.equal(400);
      expect(empty.json.errors).to.include.keys('client_id', 'term', 'period', 'currency', 'date_renews', 'lines[0][description]');
      const clientId = await addClient(server);
      const bad = await call(server, 'POST', 'invoices/addRecurring', {
        vars: recurringVars(clientId, 'soon', { term: 0, period: 'onetime', duration: 'forever', lines: [{ description: 'X', amount: '1', service_id: 1 }] }),
      });
      expect(bad.status).to.equal(400);
      expect(bad.json.errors).to.deep.include({
        term: { bounds: 'The term should be between 1 and 65535.' },
        period: { format: 'The period is invalid.' },
        duration: { format: 'The duration is invalid.' },
        date_renews: { format: 'The recurring invoice renew date must be a valid date format.' },
      });
      expect(bad.json.errors['lines[0][service_id]']).to.have.property('unsupported');
      const negative = await call(server, 'POST', 'invoices/addRecurring', { vars: recurringVars(clientId, '2027-05-01 00:00:00', { lines: [{ description: 'Credit', amount: '-5' }] }) });
      expect(negative.status).to.equal(400);
      expect(negative.json.errors).to.have.nested.property('total.minimum');
      expect(await ok(server, 'GET', 'invoices/getRecurringCount', {})).to.equal(before);
    });

    it('editRecurring changes lines by id, adds and removes them, replaces delivery methods when given', async () => {
      const clientId = await addClient(server);
      const recurId = await add(recurringVars(clientId, '2027-05-01 00:00:00'));
      const [support, backups] = await ok(server, 'GET', 'invoices/getRecurringLineItems', { invoice_recur_id: recurId });
      await ok(server, 'PUT', 'invoices/editRecurring', {
        invoice_recur_id: recurId,
        vars: {
          term: 3,
          period: 'week',
          duration: '',
          lines: [
            { id: support.id, amount: '45.00' },
            { id: backups.id, description: '', amount: '' },
            { description: 'Monitoring', amount: '2' },
          ],
          delivery: ['paper', 'email'],
        },
      });
      const edited = await ok(server, 'GET', 'invoices/getRecurring', { invoice_recur_id: recurId });
      expect(edited).to.include({ term: 3, period: 'week', duration: null, subtotal: '92.0000' });
      expect(edited.line_items.map((l: any) => [l.id === support.id, l.description, l.amount])).to.deep.equal([
        [true, 'Support plan', '45.0000'],
        [false, 'Monitoring', '2.0000'],
      ]);
      expect(edited.delivery.map((d: any) => d.method).sort()).to.deep.equal(['email', 'paper']);
      await ok(server, 'PUT', 'invoices/editRecurring', { invoice_recur_id: recurId, vars: { note_private: 'kept' } });
      expect((await ok(server, 'GET', 'invoices/getRecurringDelivery', { invoice_recur_id: recurId })).length, 'delivery not given: kept').to.equal(2);
      const wrongLine = await call(server, 'PUT', 'invoices/editRecurring', { invoice_recur_id: recurId, vars: { lines: [{ id: 999999, description: 'x', amount: '1' }] } });
      expect(wrongLine.status).to.equal(400);
      expect(wrongLine.json.errors['lines[0][id]']).to.have.property('exists');
      const missing = await call(server, 'PUT', 'invoices/editRecurring', { invoice_recur_id: 999999, vars: { term: 2 } });
      expect(missing.status).to.equal(400);
      expect(missing.json.errors).to.deep.equal({ invoice_recur_id: { exists: 'Invalid recurring invoice ID.' } });
    });

    it('addRecurringDelivery, deleteRecurringDelivery: a method once per recurring invoice, of its own client only', async () => {
      const clientId = await addClient(server);
      const recurId = await add(recurringVars(clientId, '2027-05-01 00:00:00', { delivery: [] }));
      const deliveryId = await ok(server, 'POST', 'invoices/addRecurringDelivery', { invoice_recur_id: recurId, vars: { method: 'paper' }, client_id: clientId });
      expect(await ok(server, 'POST', 'invoices/addRecurringDelivery', { invoice_recur_id: recurId, vars: { method: 'paper' }, client_id: clientId })).to.equal(deliveryId);
      expect(await ok(server, 'GET', 'invoices/getRecurringDelivery', { invoice_recur_id: recurId })).to.deep.equal([{ id: deliveryId, invoice_recur_id: recurId, method: 'paper' }]);
      const badMethod = await call(server, 'POST', 'invoices/addRecurringDelivery', { invoice_recur_id: recurId, vars: { method: 'pigeon' }, client_id: clientId });
      expect(badMethod.json.errors).to.deep.equal({ method: { exists: 'The delivery method given does not exist.' } });
      const otherClient = await addClient(server);
      expect((await call(server, 'POST', 'invoices/addRecurringDelivery', { invoice_recur_id: recurId, vars: { method: 'email' }, client_id: otherClient })).status).to.equal(400);
      await ok(server, 'DELETE', 'invoices/deleteRecurringDelivery', { invoice_delivery_id: deliveryId });
      expect(await ok(server, 'GET', 'invoices/getRecurringDelivery', { invoice_recur_id: recurId })).to.deep.equal([]);
      expect((await call(server, 'DELETE', 'invoices/deleteRecurringDelivery', { invoice_delivery_id: deliveryId })).status).to.equal(400);
    });

    it('getAllRecurring, getRecurringList (paged, ordered, filtered), getRecurringListCount and getRecurringCount', async () => {
      const clientId = await addClient(server);
      const ids = [];
      for (const [term, period, currency] of [
        [2, 'month', 'USD'],
        [1, 'year', 'EUR'],
        [1, 'month', 'USD'],
      ] as const) {
        ids.push(await add(recurringVars(clientId, '2027-06-01 00:00:00', { term, period, currency })));
      }
      const all = await ok(server, 'GET', 'invoices/getAllRecurring', { client_id: clientId });
      expect(all.map((r: any) => r.id)).to.deep.equal(ids);
      expect(all[0]).to.include({ client_id: clientId, count: 0, subtotal: '85.5000', taxable: true, client_first_name: 'Ada' });
      const listed = async (params: Record<string, unknown>) => (await ok(server, 'GET', 'invoices/getRecurringList', { client_id: clientId, ...params })).map((r: any) => r.id);
      expect(await listed({})).to.deep.equal(ids);
      expect(await listed({ order: { id: 'desc' } })).to.deep.equal([...ids].reverse());
      // By term: period first, then term (the reference's order).
      expect(await listed({ order: { term: 'asc' } })).to.deep.equal([ids[2], ids[0], ids[1]]);
      expect(await listed({ filters: { currency: 'EUR' } })).to.deep.equal([ids[1]]);
      expect(await listed({ page: 2 })).to.deep.equal([]);
      expect(await ok(server, 'GET', 'invoices/getRecurringListCount', { client_id: clientId })).to.equal(3);
      expect(await ok(server, 'GET', 'invoices/getRecurringListCount', { client_id: clientId, filters: { currency: 'USD' } })).to.equal(2);
      expect(await ok(server, 'GET', 'invoices/getRecurringCount', { client_id: clientId })).to.equal(3);
      const badOrder = await call(server, 'GET', 'invoices/getRecurringList', { order: { total: 'asc' } });
      expect(badOrder.status).to.equal(400);
      expect(badOrder.json.errors).to.have.property('order');
      const badFilter = await call(server, 'GET', 'invoices/getRecurringList', { filters: { status: 'open' } });
      expect(badFilter.json.errors).to.have.property('filters[status]');
    });

    it('deleteRecurring removes it (the invoices it made stay); deleting its client removes its recurring invoices', async () => {
      const clientId = await addClient(server);
      const recurId = await add(recurringVars(clientId, '2027-05-01 00:00:00'));
      await ok(server, 'DELETE', 'invoices/deleteRecurring', { invoice_recur_id: recurId });
      expect(await ok(server, 'GET', 'invoices/getRecurring', { invoice_recur_id: recurId })).to.equal(false);
      expect(await ok(server, 'GET', 'invoices/getRecurringLineItems', { invoice_recur_id: recurId })).to.deep.equal([]);
      expect((await call(server, 'DELETE', 'invoices/deleteRecurring', { invoice_recur_id: recurId })).status).to.equal(400);
      const gone = await addClient(server);
      const orphan = await add(recurringVars(gone, '2027-05-01 00:00:00'));
      await ok(server, 'DELETE', 'clients/delete', { client_id: gone });
      expect(await ok(server, 'GET', 'invoices/getRecurring', { invoice_recur_id: orphan })).to.equal(false);
    });
  });

  describe('invoices/add with term, period and duration', () => {
    it('an active invoice with a term makes a recurring invoice of its lines, first made one term after date_billed by default', async () => {
      const clientId = await addClient(server);
      const invoiceId = await ok(server, 'POST', 'invoices/add', {
        vars: {
          client_id: clientId,
          date_billed: '2027-01-15 10:00:00 UTC',
          date_due: '2027-01-30 10:00:00 UTC',
          currency: 'USD',
          lines: [{ description: 'Retainer', amount: '300', tax: 'true' }],
          delivery: ['email'],
          term: 1,
          period: 'month',
          duration: 'times',
          duration_time: 2,
        },
      });
      expect(await ok(server, 'GET', 'invoices/get', { invoice_id: invoiceId })).to.include({ status: 'active', total: '300.0000' });
      const [recurring] = await ok(server, 'GET', 'invoices/getAllRecurring', { client_id: clientId });
      expect(recurring).to.include({ term: 1, period: 'month', duration: 2, currency: 'USD', date_renews: '2027-02-15 10:00:00', count: 0, subtotal: '300.0000' });
      const explicit = await addClient(server);
      await ok(server, 'POST', 'invoices/add', {
        vars: {
          client_id: explicit,
          date_billed: '2027-01-15 10:00:00 UTC',
          date_due: '2027-01-30 10:00:00 UTC',
          currency: 'USD',
          lines: [{ description: 'Retainer', amount: '300' }],
          term: 2,
          period: 'week',
          duration: 'indefinitely',
          recur_date_billed: '2027-03-01 00:00:00 UTC',
        },
      });
      expect((await ok(server, 'GET', 'invoices/getAllRecurring', { client_id: explicit }))[0]).to.include({ term: 2, period: 'week', duration: null, date_renews: '2027-03-01 00:00:00' });
    });

    it('a bad recurring part is refused with nothing written; a blank term is no recurring invoice', async () => {
      const clientId = await addClient(server);
      const base = { client_id: clientId, date_billed: '2027-01-15 10:00:00 UTC', date_due: '2027-01-30 10:00:00 UTC', currency: 'USD', lines: [{ description: 'Retainer', amount: '300' }] };
      const bad = await call(server, 'POST', 'invoices/add', { vars: { ...base, term: 70000, period: 'fortnight', duration: 'times', duration_time: 0, recur_date_billed: 'later' } });
      expect(bad.status).to.equal(400);
      expect(bad.json.errors).to.have.keys('term', 'period', 'duration_time', 'recur_date_billed');
      expect(await invoicesOf(clientId)).to.deep.equal([]);
      await ok(server, 'POST', 'invoices/add', { vars: { ...base, term: '' } });
      expect(await ok(server, 'GET', 'invoices/getRecurringCount', { client_id: clientId })).to.equal(0);
    });

    it('a draft keeps its recurring part until it stops being a draft; a non-draft edit with a term is refused', async () => {
      const clientId = await addClient(server);
      const draftId = await ok(server, 'POST', 'invoices/add', {
        vars: {
          client_id: clientId,
          date_billed: '2027-01-15 10:00:00 UTC',
          date_due: '2027-01-30 10:00:00 UTC',
          currency: 'USD',
          status: 'draft',
          lines: [{ description: 'Retainer', amount: '300' }],
          term: 1,
          period: 'year',
        },
      });
      expect(await ok(server, 'GET', 'invoices/getRecurringCount', { client_id: clientId })).to.equal(0);
      await ok(server, 'PUT', 'invoices/edit', { invoice_id: draftId, vars: { status: 'active' } });
      const [recurring] = await ok(server, 'GET', 'invoices/getAllRecurring', { client_id: clientId });
      expect(recurring).to.include({ term: 1, period: 'year', date_renews: '2028-01-15 10:00:00' });
      const refused = await call(server, 'PUT', 'invoices/edit', { invoice_id: draftId, vars: { term: 1, period: 'month' } });
      expect(refused.status).to.equal(400);
      expect(refused.json.errors).to.have.nested.property('term.draft');
      expect(await ok(server, 'GET', 'invoices/getRecurringCount', { client_id: clientId })).to.equal(1);
    });
  });

  describe('the billing run', () => {
    it('makes each invoice on time (invoice days before renewal), once however often it runs, with the Invoices.add event', async () => {
      const clientId = await addClient(server);
      const recurId = await add(recurringVars(clientId, '2027-08-10 09:00:00', { duration: 2 }));
      await runAt(server, '2027-08-07 12:00:00');
      expect(await invoicesOf(clientId), 'three days before: not yet').to.deep.equal([]);
      await runAt(server, '2027-08-08 12:00:00');
      await runAt(server, '2027-08-08 12:00:00');
      await Promise.all([runAt(server, '2027-08-09 12:00:00'), runAt(server, '2027-08-09 12:00:00')]);
      const [invoice] = await invoicesOf(clientId);
      expect(await invoicesOf(clientId)).to.have.length(1);
      expect(invoice).to.include({ status: 'active', currency: 'USD', date_billed: '2027-08-08 12:00:00', date_due: '2027-08-10 09:00:00', note_public: 'Thank you', subtotal: '85.5000' });
      const full = await ok(server, 'GET', 'invoices/get', { invoice_id: invoice.id });
      expect(full.line_items.map((l: any) => l.description)).to.deep.equal(['Support plan (2027-08-10 - 2027-09-10)', 'Backups (2027-08-10 - 2027-09-10)']);
      expect(full.delivery).to.deep.equal(['email']);
      const events = await ok(server, 'GET', 'events/getList', { type: 'Invoices.add' });
      expect(events.some((e: any) => e.payload.id === invoice.id)).to.equal(true);
      expect(await ok(server, 'GET', 'invoices/getRecurring', { invoice_recur_id: recurId })).to.include({ count: 1, date_renews: '2027-09-10 09:00:00', date_last_renewed: '2027-08-10 09:00:00' });
      expect((await ok(server, 'GET', 'invoices/getRecurringFromInvoices', { invoice_id: invoice.id })).id).to.equal(recurId);
      expect(await ok(server, 'GET', 'invoices/getRecurringInfo', { invoice_id: invoice.id })).to.deep.equal({ amount: '85.5000', term: 1, period: 'month' });
    });

    it('two processes running the billing run at once make each invoice once', async () => {
      const clientIds: number[] = [];
      for (let i = 0; i < 6; i++) {
        const clientId = await addClient(server);
        clientIds.push(clientId);
        await add(recurringVars(clientId, '2027-10-01 00:00:00', { period: 'day' }));
      }
      const run = () => runCli(server.database.url, ['automation', 'run', '--task', 'create_invoice', '--now', '2027-10-03 09:00:00']);
      const [a, b] = await Promise.all([run(), run()]);
      expect(a.code, a.stderr).to.equal(0);
      expect(b.code, b.stderr).to.equal(0);
      for (const clientId of clientIds) {
        // 1, 2, 3, 4 and 5 October are within the two days before renewal of 3 October 09:00.
        const dues = (await invoicesOf(clientId)).map((i: any) => i.date_due);
        expect(dues, `client ${clientId}`).to.deep.equal(['2027-10-03 09:00:00', '2027-10-03 09:00:00', '2027-10-03 09:00:00', '2027-10-04 00:00:00', '2027-10-05 00:00:00']);
      }
      const created = await server.installation.db.selectFrom('invoices_recur_created').select(['invoice_recur_id', 'date_renews']).execute();
      expect(new Set(created.map((c) => `${c.invoice_recur_id}/${c.date_renews}`)).size).to.equal(created.length);
    });

    it('catches up one invoice per missed period, and stops at its duration', async () => {
      const clientId = await addClient(server);
      const recurId = await add(recurringVars(clientId, '2027-01-01 00:00:00', { period: 'week', duration: 3 }));
      await runAt(server, '2027-02-20 12:00:00');
      const invoices = await invoicesOf(clientId);
      expect(invoices.map((i: any) => i.date_due)).to.deep.equal(['2027-02-20 12:00:00', '2027-02-20 12:00:00', '2027-02-20 12:00:00']);
      const full = await ok(server, 'GET', 'invoices/get', { invoice_id: invoices[2].id });
      expect(full.line_items[0].description).to.equal('Support plan (2027-01-15 - 2027-01-22)');
      await runAt(server, '2027-03-20 12:00:00');
      expect(await invoicesOf(clientId)).to.have.length(3);
      expect(await ok(server, 'GET', 'invoices/getRecurring', { invoice_recur_id: recurId })).to.include({ count: 3, date_renews: '2027-01-22 00:00:00' });
    });

    it('an invoice made by no recurring invoice: getRecurringFromInvoices false, getRecurringInfo false', async () => {
      const clientId = await addClient(server);
      const invoiceId = await ok(server, 'POST', 'invoices/add', {
        vars: { client_id: clientId, date_billed: '2027-01-15 10:00:00 UTC', date_due: '2027-01-30 10:00:00 UTC', currency: 'USD', lines: [{ description: 'One-off', amount: '3' }] },
      });
      expect(await ok(server, 'GET', 'invoices/getRecurringFromInvoices', { invoice_id: invoiceId })).to.equal(false);
      expect(await ok(server, 'GET', 'invoices/getRecurringInfo', { invoice_id: invoiceId })).to.equal(false);
      expect(await ok(server, 'GET', 'invoices/getRecurringInfo', { invoice_id: 999999 })).to.equal(false);
    });
  });

  describe("another company's key", () => {
    it('finds, changes, lists and deletes none of them, and cannot bill its clients', async () => {
      const clientId = await addClient(server);
      const recurId = await add(recurringVars(clientId, '2027-05-01 00:00:00'));
      const [delivery] = await ok(server, 'GET', 'invoices/getRecurringDelivery', { invoice_recur_id: recurId });
      const other = await newCompany(server, 'Recurring Rival');
      expect(await ok(server, 'GET', 'invoices/getRecurring', { invoice_recur_id: recurId }, other.auth)).to.equal(false);
      expect(await ok(server, 'GET', 'invoices/getRecurringLineItems', { invoice_recur_id: recurId }, other.auth)).to.deep.equal([]);
      expect(await ok(server, 'GET', 'invoices/getRecurringDelivery', { invoice_recur_id: recurId }, other.auth)).to.deep.equal([]);
      expect(await ok(server, 'GET', 'invoices/getAllRecurring', {}, other.auth)).to.deep.equal([]);
      expect(await ok(server, 'GET', 'invoices/getRecurringList', {}, other.auth)).to.deep.equal([]);
      expect(await ok(server, 'GET', 'invoices/getRecurringCount', {}, other.auth)).to.equal(0);
      expect(await ok(server, 'GET', 'invoices/getRecurringListCount', { client_id: clientId }, other.auth)).to.equal(0);
      for (const [verb, path, params] of [
        ['PUT', 'invoices/editRecurring', { invoice_recur_id: recurId, vars: { term: 5 } }],
        ['DELETE', 'invoices/deleteRecurring', { invoice_recur_id: recurId }],
        ['POST', 'invoices/addRecurringDelivery', { invoice_recur_id: recurId, vars: { method: 'paper' }, client_id: clientId }],
        ['DELETE', 'invoices/deleteRecurringDelivery', { invoice_delivery_id: delivery.id }],
        ['POST', 'invoices/addRecurring', { vars: recurringVars(clientId, '2027-05-01 00:00:00') }],
      ] as const) {
        const res = await call(server, verb, path, params, other.auth);
        expect(res.status, path).to.equal(400);
      }
      const mine = await ok(server, 'GET', 'invoices/getRecurring', { invoice_recur_id: recurId });
      expect(mine).to.include({ term: 1 });
      expect(mine.delivery).to.have.length(1);
    });
  });
});
