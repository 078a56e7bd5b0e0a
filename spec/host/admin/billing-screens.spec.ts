import { expect } from 'chai';
import { startTestServer, TestServer } from '../../support/test-server';
import { AdminClient, addStaff } from './support/admin-client';

const HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>';
const ESCAPED = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;';

/** The location of a 303, resolved, and the id it names. */
const idIn = (location: string | null, name: string) => Number(new URL(location!, 'http://x').searchParams.get(name));

/**
 * Clients and invoices in the admin area over plain HTTP, as a browser posts the forms: add a
 * client (its name hostile markup), find it, bill it, pay the invoice, void another; every value
 * from the database renders as text; a read-only staff member's forged posts change nothing.
 */
describe('client and invoice screens (admin area over HTTP)', function () {
  this.timeout(120_000);
  let server: TestServer;
  let staff: AdminClient;
  let clientId: number;
  let invoiceId: number;

  const count = async (table: 'clients' | 'invoices' | 'transactions' | 'client_notes') => (await server.installation.db.selectFrom(table).select('id').execute()).length;

  before(async () => {
    server = await startTestServer();
    await addStaff(server.installation);
    staff = new AdminClient(server.url);
    await staff.signIn();
  });
  after(() => server.close());

  it('shows empty lists that say what to do next', async () => {
    const clients = await staff.get('/admin/clients');
    expect(clients.status).to.equal(200);
    expect(clients.text).to.contain('No clients yet.').and.contain('Add a client</a> to start billing them');
    const invoices = await staff.get('/admin/invoices');
    expect(invoices.text).to.contain('No open invoices.');
  });

  it('adds a client whose name is markup, and shows it as text everywhere', async () => {
    await staff.get('/admin/clients/add');
    const added = await staff.post('/admin/clients/add', { company_id: '1', first_name: HOSTILE, last_name: 'Hopper', email: 'grace@example.com', company: 'Navy & Co', status: 'active' });
    expect(added.status, added.text).to.equal(303);
    clientId = idIn(added.location, 'client_id');
    const profile = await staff.get(`/admin/clients/view?company=1&client_id=${clientId}&done=added`);
    expect(profile.status).to.equal(200);
    expect(profile.text).to.contain('The client has been added.');
    expect(profile.text).to.contain(`${ESCAPED} Hopper`);
    expect(profile.text).not.to.contain('<script>alert').and.not.to.contain('<img src=x');
    const list = await staff.get('/admin/clients');
    expect(list.text).to.contain(ESCAPED).and.not.to.contain('<img src=x');
    expect(list.text).to.match(/<td data-label="Email">grace@example.com<\/td>/);
  });

  it('refuses a client without an email, saying why and keeping what was typed', async () => {
    const before = await count('clients');
    const res = await staff.post('/admin/clients/add', { company_id: '1', first_name: 'No', last_name: 'Email', email: '' });
    expect(res.status).to.equal(400);
    expect(res.text).to.contain('That could not be saved').and.contain('value="No"');
    expect(await count('clients')).to.equal(before);
  });

  it('finds the client by name, email, company and number, and by status', async () => {
    for (const q of ['Hopper', 'grace@example', 'Navy', String(clientId)]) {
      const res = await staff.get(`/admin/clients?q=${encodeURIComponent(q)}`);
      expect(res.text, q).to.contain(`client_id=${clientId}`);
    }
    expect((await staff.get('/admin/clients?q=nobody-at-all')).text).to.contain('No client matches “nobody-at-all”');
    expect((await staff.get('/admin/clients?status=inactive')).text).to.contain('No inactive clients yet.');
    expect((await staff.get('/admin/clients?status=active')).text).to.contain(`client_id=${clientId}`);
  });

  it('edits the client', async () => {
    await staff.get(`/admin/clients/edit?client_id=${clientId}`);
    const res = await staff.post('/admin/clients/edit', {
      company_id: '1',
      client_id: String(clientId),
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@example.com',
      company: 'Navy & Co',
      status: 'active',
    });
    expect(res.status, res.text).to.equal(303);
    expect((await staff.get(`/admin/clients/view?client_id=${clientId}&done=saved`)).text).to.contain('<h1>Grace Hopper</h1>');
  });

  it('creates an invoice with lines for the client; the lines are text, the totals add up, and it is on the profile', async () => {
    await staff.get(`/admin/invoices/add?client_id=${clientId}`);
    const res = await staff.post('/admin/invoices/add', {
      company_id: '1',
      client_id: String(clientId),
      currency: 'USD',
      date_billed: '2026-11-01',
      date_due: '2026-11-15',
      'lines[0][description]': `Hosting ${HOSTILE}`,
      'lines[0][qty]': '2',
      'lines[0][amount]': '10.50',
      'lines[0][tax]': 'true',
      'lines[1][description]': 'Setup',
      'lines[1][qty]': '1',
      'lines[1][amount]': '4',
      'lines[2][description]': '',
      'lines[2][amount]': '',
      status: 'active',
    });
    expect(res.status, res.text).to.equal(303);
    invoiceId = idIn(res.location, 'invoice_id');
    const view = await staff.get(`/admin/invoices/view?invoice_id=${invoiceId}&done=added`);
    expect(view.text).to.contain('The invoice has been created.');
    expect(view.text).to.contain(`Hosting ${ESCAPED}`).and.not.to.contain('<img src=x');
    expect(view.text).to.match(/<td data-label="Amount" class="num">\$21\.00<\/td>/);
    expect(view.text).to.contain('$25.00');
    expect(view.text).to.contain('Overdue invoice for');
    const tab = await staff.get(`/admin/clients/view?client_id=${clientId}&tab=invoices`);
    expect(tab.text).to.contain(`invoice_id=${invoiceId}`);
    const summary = await staff.get(`/admin/clients/view?client_id=${clientId}`);
    expect(summary.text).to.contain('Overdue (1)').and.contain('Open (1)');
    expect((await staff.get('/admin/invoices?status=past_due')).text)
      .to.contain(`invoice_id=${invoiceId}`)
      .and.contain('Grace Hopper');
  });

  it('refuses an invoice without lines, writing nothing', async () => {
    const before = await count('invoices');
    const res = await staff.post('/admin/invoices/add', { company_id: '1', client_id: String(clientId), currency: 'USD', date_billed: '2026-11-01', date_due: '2026-11-15', status: 'active' });
    expect(res.status).to.equal(400);
    expect(res.text).to.contain('That could not be saved');
    expect(await count('invoices')).to.equal(before);
  });

  it('records a payment: the invoice is paid, the payment is on the client, and the filters follow', async () => {
    const res = await staff.post('/admin/invoices/pay', { company_id: '1', invoice_id: String(invoiceId), amount: '25.00', type: 'other', reference: 'CHQ-1' });
    expect(res.status, res.text).to.equal(303);
    const view = await staff.get(`/admin/invoices/view?invoice_id=${invoiceId}&done=paid`);
    expect(view.text).to.contain('The payment has been recorded').and.contain('Paid invoice for').and.not.to.contain('Record a payment');
    expect((await staff.get(`/admin/clients/view?client_id=${clientId}&tab=transactions`)).text)
      .to.contain('CHQ-1')
      .and.contain('$25.00');
    expect((await staff.get('/admin/invoices?status=closed')).text).to.contain(`invoice_id=${invoiceId}`);
    expect((await staff.get('/admin/invoices?status=open')).text).to.contain('No open invoices.');
    const dashboard = await staff.get('/admin');
    expect(dashboard.text).to.match(new RegExp(`<td data-label="Client"><a href="/admin/clients/view\\?company=1&amp;client_id=${clientId}">Grace Hopper</a></td>`));
    expect(dashboard.text).to.contain('href="/admin/invoices?company=1&amp;status=past_due">0</a>');
  });

  it('voids an invoice, and adds a note signed by the staff member', async () => {
    const created = await staff.post('/admin/invoices/add', {
      company_id: '1',
      client_id: String(clientId),
      currency: 'USD',
      date_billed: '2026-11-20',
      date_due: '2099-12-01',
      'lines[0][description]': 'Mistake',
      'lines[0][amount]': '1',
      status: 'active',
    });
    const mistake = idIn(created.location, 'invoice_id');
    expect((await staff.post('/admin/invoices/void', { company_id: '1', invoice_id: String(mistake) })).status).to.equal(303);
    expect((await staff.get(`/admin/invoices/view?invoice_id=${mistake}&done=voided`)).text)
      .to.contain('The invoice has been voided')
      .and.contain('Void invoice for');
    expect((await staff.get('/admin/invoices?status=void')).text).to.contain(`invoice_id=${mistake}`);
    const note = await staff.post('/admin/clients/notes/add', { company_id: '1', client_id: String(clientId), title: `Called ${HOSTILE}`, description: 'About the mistake' });
    expect(note.status, note.text).to.equal(303);
    const notes = await staff.get(`/admin/clients/view?client_id=${clientId}&tab=notes&done=note`);
    expect(notes.text).to.contain(`Called ${ESCAPED}`).and.not.to.contain('<img src=x');
    const row = await server.installation.db.selectFrom('client_notes').select('staff_id').executeTakeFirstOrThrow();
    expect(row.staff_id).to.equal(1);
  });

  it("does not show another company's client or invoice", async () => {
    const other = await server.request('POST', '/api/companies/add.json', { body: 'vars[name]=Other', auth: server.installationCredential });
    const otherId = other.json.response;
    expect((await staff.get(`/admin/clients/view?company=${otherId}&client_id=${clientId}`)).status).to.equal(404);
    expect((await staff.get(`/admin/invoices/view?company=${otherId}&invoice_id=${invoiceId}`)).status).to.equal(404);
    const before = await count('transactions');
    const res = await staff.post('/admin/invoices/pay', { company_id: String(otherId), invoice_id: String(invoiceId), amount: '1' });
    expect(res.status).to.equal(404);
    expect(await count('transactions')).to.equal(before);
  });

  it('shows a read-only staff member every client and invoice page with no action offered, and refuses their forged posts with a valid session and token, changing nothing', async () => {
    await addStaff(server.installation, 'viewer', 'viewer password 1');
    const groupId = await server.installation.call('staff_groups', 'add', { vars: { name: 'Read-only' } }, { companyId: 1, user: 'spec' });
    const viewer = (await server.installation.call('staff', 'getAll', {}, { companyId: 1, user: 'spec' })) as Array<{ id: number; username: string }>;
    await server.installation.call('staff_groups', 'assign', { staff_id: viewer.find((s) => s.username === 'viewer')!.id, staff_group_id: groupId }, { companyId: 1, user: 'spec' });
    const reader = new AdminClient(server.url);
    await reader.signIn('viewer', 'viewer password 1');
    const open = await staff.post('/admin/invoices/add', {
      company_id: '1',
      client_id: String(clientId),
      currency: 'USD',
      date_billed: '2026-11-20',
      date_due: '2099-12-01',
      'lines[0][description]': 'Open',
      'lines[0][amount]': '5',
      status: 'active',
    });
    const openId = String(idIn(open.location, 'invoice_id'));
    // Every page is theirs to read, with the one-line note where a member with the area gets actions (checked first, so an absence is the gate's).
    const clientsNote = 'Your staff group can view clients and contacts but not change them.';
    const billingNote = 'Your staff group can view invoices, payments and payment accounts but not change them.';
    const pages: Array<[string, string, string[]]> = [
      ['/admin/clients', clientsNote, ['/admin/clients/add']],
      [`/admin/clients/view?client_id=${clientId}`, clientsNote, ['/admin/invoices/add', '/admin/clients/edit']],
      [`/admin/clients/view?client_id=${clientId}&tab=notes`, clientsNote, ['action="/admin/clients/notes/add"']],
      ['/admin/invoices', billingNote, ['/admin/invoices/add']],
      [`/admin/invoices/view?invoice_id=${openId}`, billingNote, ['action="/admin/invoices/pay"', 'action="/admin/invoices/void"']],
      ['/admin/clients/add', clientsNote, ['action="/admin/clients/add"']],
      [`/admin/clients/edit?client_id=${clientId}`, clientsNote, ['action="/admin/clients/edit"']],
      ['/admin/invoices/add', billingNote, ['action="/admin/invoices/add"']],
    ];
    for (const [path, note, actions] of pages) {
      const full = await staff.get(path);
      for (const action of actions) expect(full.text, `${path} for the owner`).to.contain(action);
      expect(full.text, path).not.to.contain(note);
      const page = await reader.get(path);
      expect(page.status, path).to.equal(200);
      expect(page.text, path).to.contain(note);
      for (const action of actions) expect(page.text, path).not.to.contain(action);
    }
    const clientBefore = await server.installation.call('clients', 'get', { client_id: clientId }, { companyId: 1, user: 'spec' });
    const invoiceBefore = await server.installation.call('invoices', 'get', { invoice_id: Number(openId) }, { companyId: 1, user: 'spec' });
    const counts = async () => Promise.all([count('clients'), count('invoices'), count('transactions'), count('client_notes')]);
    const before = await counts();
    const forged: Array<[string, Record<string, string>]> = [
      ['/admin/clients/add', { first_name: 'Forged', last_name: 'Client', email: 'f@example.com' }],
      ['/admin/clients/edit', { client_id: String(clientId), first_name: 'Forged', last_name: 'Name', email: 'f@example.com' }],
      ['/admin/clients/notes/add', { client_id: String(clientId), title: 'Forged' }],
      ['/admin/invoices/add', { client_id: String(clientId), currency: 'USD', date_billed: '2026-11-20', date_due: '2026-12-01', 'lines[0][description]': 'Forged', 'lines[0][amount]': '9' }],
      ['/admin/invoices/pay', { invoice_id: openId, amount: '5' }],
      ['/admin/invoices/void', { invoice_id: openId }],
    ];
    for (const [path, fields] of forged) {
      const res = await reader.post(path, { company_id: '1', ...fields });
      expect(res.status, path).to.equal(403);
      expect(res.text, path).to.contain('The requested resource is not accessible.').and.contain('nothing was changed');
    }
    expect(await counts()).to.deep.equal(before);
    expect(await server.installation.call('clients', 'get', { client_id: clientId }, { companyId: 1, user: 'spec' })).to.deep.equal(clientBefore);
    expect(await server.installation.call('invoices', 'get', { invoice_id: Number(openId) }, { companyId: 1, user: 'spec' })).to.deep.equal(invoiceBefore);
    const view = await staff.get(`/admin/invoices/view?invoice_id=${openId}`);
    expect(view.text).to.contain('Open invoice for').and.contain('Grace Hopper');
  });
});
