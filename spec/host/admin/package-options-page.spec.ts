import { expect } from 'chai';
import { startTestServer, TestServer } from '../../support/test-server';
import { AdminClient, addStaff } from './support/admin-client';
import { pageReview } from './support/page-review';
import { signedInBrowser } from './support/staff-browser';
import { signedInMember } from './support/staff-member';

const PAGE = '/admin/packages/options';
const HOSTILE = '<img src=x onerror="window.pwned=1">RAM';

describe('admin area: Packages → Options (option groups and their options)', function () {
  this.timeout(90_000);
  let server: TestServer;
  let staff: AdminClient;
  let theirGroup: number;
  /** The client of the add-service test, whose form the browser reviews. */
  let optionsClient = 0;
  const as = { companyId: 1, user: 'spec' };
  const groups = () =>
    server.installation.call('package_option_groups', 'getAll', { company_id: 1 }, as) as Promise<Array<{ id: number; name: string; description: string | null; options: number[] }>>;
  const options = () => server.installation.call('package_options', 'getAll', { company_id: 1 }, as) as Promise<Array<{ id: number; label: string; type: string; values: unknown[] }>>;
  const option = (groupId: number, more: Record<string, string> = {}) => ({
    company_id: '1',
    option_group_id: String(groupId),
    label: HOSTILE,
    name: 'ram',
    type: 'select',
    value_name: '4 GB',
    value: '4',
    term: '1',
    period: 'month',
    currency: 'USD',
    price: '5.00',
    ...more,
  });

  before(async () => {
    server = await startTestServer();
    await addStaff(server.installation);
    const other = (await server.installation.call('companies', 'add', { vars: { name: 'Other Co' } }, as)) as number;
    theirGroup = (await server.installation.call('package_option_groups', 'add', { vars: { name: 'Theirs' } }, { companyId: other, user: 'spec' })) as number;
    staff = new AdminClient(server.url);
    await staff.signIn();
  });
  after(() => server.close());

  it('adds a group, an option priced for a term (its label shown as text), renames the group and deletes it (its options stay)', async () => {
    await staff.get(`${PAGE}?company=1`);
    expect((await staff.post(`${PAGE}/groups/add`, { company_id: '1', name: 'VPS options', description: 'Memory and disk' })).status).to.equal(303);
    const [group] = await groups();
    expect(group).to.include({ name: 'VPS options', description: 'Memory and disk' });
    expect((await staff.post(`${PAGE}/add-option`, option(group.id))).status).to.equal(303);
    const [added] = await options();
    expect(added).to.include({ label: HOSTILE, type: 'select' });
    expect((await groups())[0].options).to.deep.equal([added.id]);
    const page = await staff.get(`${PAGE}?company=1`);
    expect(page.text).to.include('&lt;img src=x onerror=&quot;window.pwned=1&quot;&gt;RAM').and.include('4 GB (4): $5.00 every 1 month').and.not.include('<img src=x');
    expect((await staff.post(`${PAGE}/groups/edit`, { company_id: '1', option_group_id: String(group.id), name: 'Cloud options', description: '' })).status).to.equal(303);
    expect((await groups())[0].name).to.equal('Cloud options');
    expect((await staff.post(`${PAGE}/groups/delete`, { company_id: '1', option_group_id: String(group.id) })).status).to.equal(303);
    expect(await groups()).to.deep.equal([]);
    expect((await options()).map((o) => o.id)).to.deep.equal([added.id]);
  });

  it("refuses an option without a price with the model's message and writes nothing", async () => {
    const groupId = (await server.installation.call('package_option_groups', 'add', { vars: { name: 'Disk' } }, as)) as number;
    const [groupsBefore, optionsBefore] = [await groups(), await options()];
    const refused = await staff.post(`${PAGE}/add-option`, option(groupId, { name: 'disk', price: 'lots' }));
    expect(refused.status).to.equal(400);
    expect(refused.text).to.include('That could not be saved');
    expect(await groups()).to.deep.equal(groupsBefore);
    expect(await options()).to.deep.equal(optionsBefore);
  });

  it("answers 404 for another company's group, changing nothing of theirs", async () => {
    const theirs = () => server.installation.call('package_option_groups', 'getAll', {}, { companyId: 2, user: 'spec' });
    const before = await theirs();
    for (const path of ['groups/edit', 'groups/delete', 'add-option']) {
      expect((await staff.post(`${PAGE}/${path}`, option(theirGroup, { name: 'hijack' }))).status, path).to.equal(404);
    }
    expect(await theirs()).to.deep.equal(before);
  });

  it("offers the option groups on a package's form and saves the ticked ones (packages vars[option_groups])", async () => {
    const groupId = (await groups())[0].id;
    const form = await staff.get('/admin/packages/add?company=1');
    expect(form.text).to.include(`name="option_groups[]" value="${groupId}"`);
    const pricing = { 'pricing[0][term]': '1', 'pricing[0][period]': 'month', 'pricing[0][currency]': 'USD', 'pricing[0][price]': '10.00' };
    const added = await staff.post('/admin/packages/add', { company_id: '1', name: 'VPS', status: 'active', 'option_groups[]': String(groupId), ...pricing });
    expect(added.status).to.equal(303);
    const packageId = Number(new URL(added.location!, server.url).searchParams.get('package_id'));
    const optionGroupsOf = async () => ((await server.installation.call('packages', 'get', { package_id: packageId }, as)) as { option_groups: number[] }).option_groups;
    expect(await optionGroupsOf()).to.deep.equal([groupId]);
    expect((await staff.get(`/admin/packages/edit?company=1&package_id=${packageId}`)).text).to.include(`name="option_groups[]" value="${groupId}" checked`);
    expect((await staff.post('/admin/packages/edit', { company_id: '1', package_id: String(packageId), name: 'VPS', status: 'active' })).status).to.equal(303);
    expect(await optionGroupsOf()).to.deep.equal([]);
  });

  it("offers a package's options on a client's Add a service form and adds the service with the one chosen (configoptions)", async () => {
    const groupId = (await server.installation.call('package_option_groups', 'add', { vars: { name: 'Memory' } }, as)) as number;
    const price = (amount: string) => [{ term: 1, period: 'month', currency: 'USD', price: amount }];
    const values = [
      { name: '4 GB', value: '4', pricing: price('2.00') },
      { name: '8 GB', value: '8', pricing: price('4.00') },
    ];
    const optionId = (await server.installation.call('package_options', 'add', { vars: { label: 'Memory size', name: 'memory', type: 'select', groups: [groupId], values } }, as)) as number;
    const packageId = (await server.installation.call('packages', 'add', { vars: { name: 'Cloud', pricing: price('10.00'), option_groups: [groupId] } }, as)) as number;
    const pricingId = ((await server.installation.call('packages', 'get', { package_id: packageId }, as)) as { pricing: Array<{ id: number }> }).pricing[0].id;
    const clientId = (await server.installation.call('clients', 'add', { vars: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' } }, as)) as number;
    optionsClient = clientId;
    const form = await staff.get(`/admin/services/add?company=1&client_id=${clientId}`);
    expect(form.text).to.include(`name="configoptions[${optionId}]"`).and.include('8 GB ($4.00 every 1 month)');
    const count = () => server.installation.call('services', 'getListCount', { client_id: clientId, status: 'all' }, as);
    const fields = (value: string) => ({ company_id: '1', client_id: String(clientId), pricing_id: String(pricingId), status: 'active', [`configoptions[${optionId}]`]: value });
    const refused = await staff.post('/admin/services/add', fields('16'));
    expect(refused.status).to.equal(400);
    expect(await count()).to.equal(0);
    const added = await staff.post('/admin/services/add', fields('8'));
    expect(added.status).to.equal(303);
    const serviceId = Number(new URL(added.location!, server.url).searchParams.get('service_id'));
    const taken = (await server.installation.call('services', 'getOptions', { service_id: serviceId }, as)) as Array<{ option_id: number; option_value: string }>;
    expect(taken.map((o) => [o.option_id, o.option_value])).to.deep.equal([[optionId, '8']]);
    expect((await staff.get(`/admin/services/view?company=1&service_id=${serviceId}`)).text).to.include('Memory size: 8 GB');
    const proId = (await server.installation.call('packages', 'add', { vars: { name: 'Cloud Pro', pricing: price('20.00'), option_groups: [groupId] } }, as)) as number;
    const proPricing = ((await server.installation.call('packages', 'get', { package_id: proId }, as)) as { pricing: Array<{ id: number }> }).pricing[0].id;
    const quote = await staff.get(`/admin/services/change?company=1&service_id=${serviceId}&pricing_id=${proPricing}`);
    expect(quote.status).to.equal(200);
    expect(quote.text).to.include('The service keeps its options (Memory size: 8 GB)');
  });

  it("orders a group's options one place at a time (package_option_groups/orderOptions)", async () => {
    const groupId = (await server.installation.call('package_option_groups', 'add', { vars: { name: 'Ordered' } }, as)) as number;
    const values = [{ name: 'Yes', value: '1', pricing: [{ term: 1, period: 'month', currency: 'USD', price: '1.00' }] }];
    const add = (label: string) =>
      server.installation.call('package_options', 'add', { vars: { label, name: label.toLowerCase(), type: 'checkbox', groups: [groupId], values } }, as) as Promise<number>;
    const [first, second, third] = [await add('Backups'), await add('Monitoring'), await add('Support')];
    const orderOf = async () => ((await server.installation.call('package_option_groups', 'get', { option_group_id: groupId }, as)) as { options: number[] }).options;
    expect(await orderOf()).to.deep.equal([first, second, third]);
    await staff.get(`${PAGE}?company=1`);
    const moved = await staff.post(`${PAGE}/order`, { company_id: '1', option_group_id: String(groupId), option_id: String(third), direction: 'up' });
    expect(moved.status).to.equal(303);
    expect(await orderOf()).to.deep.equal([first, third, second]);
    await staff.post(`${PAGE}/order`, { company_id: '1', option_group_id: String(groupId), option_id: String(first), direction: 'down' });
    expect(await orderOf()).to.deep.equal([third, first, second]);
    await staff.post(`${PAGE}/order`, { company_id: '1', option_group_id: String(groupId), option_id: String(third), direction: 'up' });
    expect(await orderOf()).to.deep.equal([third, first, second]);
    expect((await staff.post(`${PAGE}/order`, { company_id: '1', option_group_id: String(theirGroup), option_id: String(first), direction: 'up' })).status).to.equal(404);
  });

  it("renames an option (package_options/edit), refuses an empty label changing nothing, and answers 404 for another company's option", async () => {
    const [target] = (await options()).filter((o) => o.label === 'Backups');
    await staff.get(`${PAGE}?company=1`);
    expect((await staff.post(`${PAGE}/edit-option`, { company_id: '1', option_id: String(target.id), label: 'Daily backups', name: 'backups' })).status).to.equal(303);
    const renamed = (await options()).find((o) => o.id === target.id)!;
    expect(renamed).to.include({ label: 'Daily backups' });
    expect((await staff.post(`${PAGE}/edit-option`, { company_id: '1', option_id: String(target.id), label: '', name: 'backups' })).status).to.equal(400);
    expect((await options()).find((o) => o.id === target.id)).to.deep.equal(renamed);
    const theirOption = (await server.installation.call(
      'package_options',
      'add',
      { vars: { label: 'Theirs', name: 'theirs', type: 'text', values: [{ name: 'Text', pricing: [{ term: 1, period: 'month', currency: 'USD', price: '1.00' }] }] } },
      { companyId: 2, user: 'spec' },
    )) as number;
    expect((await staff.post(`${PAGE}/edit-option`, { company_id: '1', option_id: String(theirOption), label: 'Hijacked', name: 'theirs' })).status).to.equal(404);
    expect(((await server.installation.call('package_options', 'get', { option_id: theirOption }, { companyId: 2, user: 'spec' })) as { label: string }).label).to.equal('Theirs');
  });

  it('refuses forged posts of a member without the catalog area with a 403, records unchanged', async () => {
    const groupId = (await groups())[0].id;
    const [groupsBefore, optionsBefore] = [await groups(), await options()];
    const support = await signedInMember(server, 'sam', ['clients', 'services']);
    const page = await support.get(`${PAGE}?company=1`);
    expect(page.status).to.equal(200);
    expect(page.text).not.to.include(`action="${PAGE}/groups/add"`);
    expect((await support.post(`${PAGE}/groups/add`, { company_id: '1', name: 'Forged' })).status).to.equal(403);
    expect((await support.post(`${PAGE}/groups/edit`, { company_id: '1', option_group_id: String(groupId), name: 'Forged' })).status).to.equal(403);
    expect((await support.post(`${PAGE}/groups/delete`, { company_id: '1', option_group_id: String(groupId) })).status).to.equal(403);
    expect((await support.post(`${PAGE}/add-option`, option(groupId, { name: 'forged' }))).status).to.equal(403);
    expect((await support.post(`${PAGE}/edit-option`, { company_id: '1', option_id: '1', label: 'Forged', name: 'forged' })).status).to.equal(403);
    expect((await support.post(`${PAGE}/order`, { company_id: '1', option_group_id: String(groupId), option_id: '1', direction: 'down' })).status).to.equal(403);
    expect(await groups()).to.deep.equal(groupsBefore);
    expect(await options()).to.deep.equal(optionsBefore);
  });

  it('passes axe at 1280 and 390 px and adds an option through the form in Chromium', async function () {
    const browser = await signedInBrowser(server);
    if (!browser) return this.skip();
    try {
      const { page } = browser;
      const { review } = pageReview(page);
      await page.goto(`${server.url}${PAGE}?company=1`);
      const disk = page.getByRole('region', { name: 'Disk' });
      await disk.getByText('Add an option').click();
      await disk.getByLabel('Label').fill('Disk size');
      await disk.getByLabel('Name (what modules read)').fill('disk');
      await disk.getByLabel('First value: name').fill('50 GB');
      await disk.getByLabel('First value: value').fill('50');
      await disk.getByLabel('Price', { exact: true }).fill('3.00');
      await disk.getByRole('button', { name: 'Add option' }).click();
      await page.getByText('The option has been added to the group.').waitFor();
      expect(await page.getByRole('region', { name: 'Disk' }).getByRole('cell', { name: 'Disk size' }).count()).to.equal(1);
      await review('package-options');
      await page.goto(`${server.url}/admin/services/add?company=1&client_id=${optionsClient}`);
      expect(await page.getByLabel('Memory size').inputValue()).to.equal('');
      await review('add-service-with-options');
      expect(browser.problems).to.deep.equal([]);
    } finally {
      await browser.browser.close();
    }
  });
});
