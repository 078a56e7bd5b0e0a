import { expect } from 'chai';
import { createStaffMember } from '../../../host/admin/staff-accounts';
import { startTestServer, TestServer } from '../../support/test-server';
import { AdminClient, addStaff } from './support/admin-client';
import { pageReview } from './support/page-review';
import { signedInBrowser } from './support/staff-browser';
import { signedInMember } from './support/staff-member';

const PAGE = '/admin/settings/staff/member';
const HOSTILE_TITLE = '<b onmouseover="window.pwned=1">Overdue</b>';

describe('admin area: a staff member’s page — the emails they receive and their quick links', function () {
  this.timeout(90_000);
  let server: TestServer;
  let staff: AdminClient;
  let morgan: number;
  let theirs: number;
  const as = { companyId: 1, user: 'spec' };
  const notices = () => server.installation.call('staff', 'getNotices', { staff_id: morgan }, as);
  const links = () => server.installation.call('staff', 'getQuickLinks', { staff_id: morgan, company_id: 1 }, as);
  /** Posts a form whose fields may repeat (actions[]), with the client's CSRF token and company 1. */
  const postPairs = (client: AdminClient, path: string, pairs: Array<[string, string]>) =>
    client.send('POST', path, new URLSearchParams([['_csrf', client.token], ['company_id', '1'], ...pairs]).toString(), { 'content-type': 'application/x-www-form-urlencoded' });

  before(async () => {
    server = await startTestServer();
    morgan = await addStaff(server.installation);
    const other = (await server.installation.call('companies', 'add', { vars: { name: 'Other Co' } }, as)) as number;
    theirs = await createStaffMember(server.installation, { username: 'theirs', password: 'their password 1', email: 'theirs@example.com', companyId: other });
    staff = new AdminClient(server.url);
    await staff.signIn();
  });
  after(() => server.close());

  it('links each member from Settings → Staff and offers every email action staff can be notified of', async () => {
    expect((await staff.get('/admin/settings/staff?company=1')).text).to.include(`href="${PAGE}?company=1&amp;staff_id=${morgan}"`);
    const page = await staff.get(`${PAGE}?company=1&staff_id=${morgan}`);
    expect(page.status).to.equal(200);
    expect(page.text).to.include('value="staff_module_error"').and.include('value="invoice_delivery_paid"');
  });

  it('saves exactly the ticked emails (staff/setNotices), and none when none is ticked', async () => {
    const saved = await postPairs(staff, `${PAGE}/notices`, [
      ['staff_id', String(morgan)],
      ['actions[]', 'staff_module_error'],
      ['actions[]', 'invoice_delivery_paid'],
    ]);
    expect(saved.status).to.equal(303);
    expect(((await notices()) as Array<{ action: string }>).map((n) => n.action)).to.deep.equal(['invoice_delivery_paid', 'staff_module_error']);
    const page = await staff.get(saved.location!);
    expect(page.text)
      .to.include('The emails this staff member receives have been saved.')
      .and.match(/value="staff_module_error" id="[^"]+" checked/);
    expect(
      (
        await postPairs(staff, `${PAGE}/notices`, [
          ['staff_id', String(morgan)],
          ['actions[]', 'invoice_delivery_paid'],
        ])
      ).status,
    ).to.equal(303);
    expect(((await notices()) as Array<{ action: string }>).map((n) => n.action)).to.deep.equal(['invoice_delivery_paid']);
    expect((await postPairs(staff, `${PAGE}/notices`, [['staff_id', String(morgan)]])).status).to.equal(303);
    expect(await notices()).to.deep.equal([]);
    await postPairs(staff, `${PAGE}/notices`, [
      ['staff_id', String(morgan)],
      ['actions[]', 'invoice_delivery_paid'],
    ]);
  });

  it('refuses an action that is not an email group with the model’s message, changing nothing', async () => {
    const before = await notices();
    const refused = await postPairs(staff, `${PAGE}/notices`, [
      ['staff_id', String(morgan)],
      ['actions[]', 'staff_module_error'],
      ['actions[]', '<i>no_such</i>'],
    ]);
    expect(refused.status).to.equal(400);
    expect(refused.text).to.include('Not an email action staff can be notified of: &quot;&lt;i&gt;no_such&lt;/i&gt;&quot;');
    expect(await notices()).to.deep.equal(before);
  });

  it('keeps quick links (a hostile title shown as text on the dashboard), refuses a link off Tally, and removes one', async () => {
    const added = await staff.post(`${PAGE}/links/add`, { company_id: '1', staff_id: String(morgan), title: HOSTILE_TITLE, uri: '/admin/invoices?status=past_due', order: '2' });
    expect(added.status).to.equal(303);
    const dashboard = await staff.get('/admin?company=1');
    expect(dashboard.text).to.include('<a href="/admin/invoices?status=past_due">&lt;b onmouseover=&quot;window.pwned=1&quot;&gt;Overdue&lt;/b&gt;</a>');
    expect(dashboard.text).not.to.include('<b onmouseover');
    const before = await links();
    const refused = await staff.post(`${PAGE}/links/add`, { company_id: '1', staff_id: String(morgan), title: 'Evil', uri: 'javascript:alert(1)', order: '0' });
    expect(refused.status).to.equal(400);
    expect(refused.text).to.include('Please enter the path of a page of Tally, such as /admin/clients.');
    expect(await links()).to.deep.equal(before);
    expect((await staff.post(`${PAGE}/links/delete`, { company_id: '1', staff_id: String(morgan), uri: '/admin/invoices?status=past_due' })).status).to.equal(303);
    expect(await links()).to.deep.equal([]);
    expect((await staff.get('/admin?company=1')).text).to.include('No quick links yet');
  });

  it("answers 404 for another company's staff member, on the page and on every form, changing nothing of theirs", async () => {
    const theirNotices = () => server.installation.call('staff', 'getNotices', { staff_id: theirs }, { companyId: 2, user: 'spec' });
    const before = await theirNotices();
    expect((await staff.get(`${PAGE}?company=1&staff_id=${theirs}`)).status).to.equal(404);
    expect(
      (
        await postPairs(staff, `${PAGE}/notices`, [
          ['staff_id', String(theirs)],
          ['actions[]', 'staff_module_error'],
        ])
      ).status,
    ).to.equal(404);
    expect((await staff.post(`${PAGE}/links/add`, { company_id: '1', staff_id: String(theirs), title: 'Theirs', uri: '/admin' })).status).to.equal(404);
    expect((await staff.post(`${PAGE}/links/delete`, { company_id: '1', staff_id: String(theirs), uri: '/admin' })).status).to.equal(404);
    expect(await theirNotices()).to.deep.equal(before);
  });

  it('refuses forged posts of a member without the staff area with a 403, records unchanged, and shows them the page without forms', async () => {
    await server.installation.call('staff', 'addQuickLink', { staff_id: morgan, company_id: 1, vars: { uri: '/admin/clients', title: 'Clients' } }, as);
    const [noticesBefore, linksBefore] = [await notices(), await links()];
    const billing = await signedInMember(server, 'billie', ['billing', 'clients']);
    const page = await billing.get(`${PAGE}?company=1&staff_id=${morgan}`);
    expect(page.status).to.equal(200);
    expect(page.text).to.include('can view staff').and.not.include(`action="${PAGE}/notices"`).and.not.include(`action="${PAGE}/links/add"`);
    expect(
      (
        await postPairs(billing, `${PAGE}/notices`, [
          ['staff_id', String(morgan)],
          ['actions[]', 'staff_module_error'],
        ])
      ).status,
    ).to.equal(403);
    expect((await billing.post(`${PAGE}/links/add`, { company_id: '1', staff_id: String(morgan), title: 'Forged', uri: '/admin/audit' })).status).to.equal(403);
    expect((await billing.post(`${PAGE}/links/delete`, { company_id: '1', staff_id: String(morgan), uri: '/admin/clients' })).status).to.equal(403);
    expect(await notices()).to.deep.equal(noticesBefore);
    expect(await links()).to.deep.equal(linksBefore);
  });

  it('passes axe at 1280 and 390 px, and saves emails and a link through the forms in Chromium', async function () {
    const browser = await signedInBrowser(server);
    if (!browser) return this.skip();
    try {
      const { page } = browser;
      const { review } = pageReview(page);
      await page.goto(`${server.url}${PAGE}?company=1&staff_id=${morgan}`);
      await review('staff-member');
      await page.getByLabel('staff_module_error').check();
      await page.getByRole('button', { name: 'Save emails' }).click();
      await page.getByText('The emails this staff member receives have been saved.').waitFor();
      await page.getByLabel('Title').fill('Audit');
      await page.getByLabel('Path').fill('/admin/audit');
      await page.getByRole('button', { name: 'Add link' }).click();
      await page.getByText('The quick link has been saved.').waitFor();
      await page.goto(`${server.url}/admin?company=1`);
      await page.getByRole('region', { name: 'Your quick links' }).getByRole('link', { name: 'Audit' }).click();
      await page.waitForURL(`${server.url}/admin/audit`);
      await page.goto(`${server.url}/admin?company=1`);
      await review('dashboard-quick-links');
      expect(browser.problems).to.deep.equal([]);
    } finally {
      await browser.browser.close();
    }
  });
});
