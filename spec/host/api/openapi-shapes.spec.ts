import Ajv2020 from 'ajv/dist/2020';
import { expect } from 'chai';
import { OpenApiDocument } from '../../../host/api/openapi';
import { Operation } from '../../../host/api/openapi/types';
import { install, SHIPPED_EXTENSIONS } from '../../extensions/shipped';
import { startTestServer, TestServer } from '../../support/test-server';

/** The core models whose every method declares what it answers (and its `vars` fields, if any). */
const DECLARED = [
  'users',
  'api_keys',
  'settings',
  'companies',
  'encryption',
  'clients',
  'client_groups',
  'contacts',
  'currencies',
  'taxes',
  'invoices',
  'transactions',
  'pricings',
  'packages',
  'package_groups',
  'coupons',
  'services',
  'accounts',
  'invoice_notices',
];

type Schema = Record<string, unknown>;

/**
 * The fields `@callable({ vars, returns })` declares, as the OpenAPI document carries them, checked
 * against what the server really does: each call of a billing walk-through sends a body that its
 * operation's request schema accepts, and answers what its 200 schema describes.
 */
describe('OpenAPI: declared fields of vars and answers', () => {
  let server: TestServer;
  let document: OpenApiDocument;
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });

  before(async () => {
    server = await startTestServer({ extensionsDir: SHIPPED_EXTENSIONS });
    document = (await server.request('GET', '/api/openapi.json')).json;
  });
  after(() => server.close());

  const operation = (model: string, method: string): { verb: string; op: Operation } => {
    const item = document.paths[`/api/${model}/${method}.{format}`];
    const [verb, op] = Object.entries(item)[0];
    return { verb, op: op as Operation };
  };
  const responseSchema = (op: Operation): Schema => {
    const ok = op.responses['200'] as { content: Record<string, { schema: Schema }> };
    return ok.content['application/json'].schema;
  };
  const bodySchema = (op: Operation): Schema => op.requestBody!.content['application/json'].schema as Schema;

  /** Calls model/method as its operation says (query or JSON body), checking both sides against the document. */
  async function call(model: string, method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const { verb, op } = operation(model, method);
    let path = `/api/${model}/${method}.json`;
    let body: Record<string, unknown> | undefined;
    if (verb === 'get' || verb === 'delete') {
      const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
      if (query) path += `?${query}`;
    } else {
      body = params;
      const validBody = ajv.validate(bodySchema(op), body);
      expect(validBody, `${model}/${method} request: ${ajv.errorsText()}`).to.equal(true);
    }
    // The walk-through adds a company: the installation credential's (a company credential gets 403).
    const res = await server.request(verb.toUpperCase(), path, { auth: server.installationCredential, ...(body ? { body } : {}) });
    expect(res.status, `${model}/${method}: ${res.text}`).to.equal(200);
    const valid = ajv.validate(responseSchema(op), res.json);
    expect(valid, `${model}/${method} answered ${res.text}: ${ajv.errorsText()}`).to.equal(true);
    return res.json.response;
  }

  it('gives every method of the core models a typed `response`, and every `vars` its fields', () => {
    for (const model of DECLARED) {
      const ops = Object.entries(document.paths).filter(([path]) => path.startsWith(`/api/${model}/`));
      expect(ops, model).not.to.be.empty;
      for (const [path, item] of ops) {
        const op = Object.values(item)[0] as Operation;
        const response = (responseSchema(op).properties as Record<string, Schema> | undefined)?.response;
        expect(response, `${path} declares what it answers`).to.be.an('object');
        expect(Object.keys(response!), path).not.to.be.empty;
        const vars = op.requestBody
          ? (bodySchema(op).properties as Record<string, Schema>).vars
          : (op.parameters.find((p) => 'name' in p && p.name === 'vars') as { schema: Schema } | undefined)?.schema;
        // A list of sets (services/setFields) names the fields of its items.
        if (vars) expect(vars.properties ?? (vars.items as Schema | undefined)?.properties, `${path} names the fields of vars`).to.be.an('object').and.not.be.empty;
      }
    }
  });

  it('carries field names, kinds, required ones, formats and descriptions as JSON Schema', () => {
    const add = bodySchema(operation('invoices', 'add').op);
    const vars = (add.properties as Record<string, Schema>).vars;
    expect(vars.required).to.deep.equal(['client_id', 'date_billed', 'date_due', 'currency', 'lines']);
    const fields = vars.properties as Record<string, Schema>;
    expect(fields.client_id).to.deep.equal({ type: 'integer' });
    expect(fields.currency).to.include({ type: 'string', pattern: '^[A-Z]{3}$' });
    expect(fields.date_due.description).to.contain('YYYY-MM-DDThh:mm:ssZ');
    const line = (fields.lines.items as Schema).properties as Record<string, Schema>;
    expect(line.amount).to.include({ type: 'string', format: 'decimal' });
    expect(line.tax).to.include({ type: 'boolean' });
    expect((fields.delivery.items as Schema).enum).to.deep.equal(['email', 'paper', 'interfax', 'postalmethods']);
    const get = responseSchema(operation('users', 'get').op);
    const answer = (get.properties as Record<string, Schema>).response;
    // A record, or false when there is none (as the reference answers).
    expect((answer.anyOf as Schema[])[1]).to.deep.equal({ const: false });
    const user = (answer.anyOf as Schema[])[0];
    expect(user.type).to.equal('object');
    expect(user.required).to.deep.equal(['id', 'username', 'recovery_email', 'two_factor_mode', 'date_added']);
    expect((user.properties as Record<string, Schema>).recovery_email).to.include({ format: 'email' });
    expect((user.properties as Record<string, Schema>).recovery_email.type).to.deep.equal(['string', 'null']);
  });

  it('makes every field of an edit optional: it changes only what it names', () => {
    const edit = operation('users', 'edit');
    expect(edit.verb).to.equal('put');
    const fields = (bodySchema(edit.op).properties as Record<string, Schema>).vars.properties as Record<string, Schema>;
    expect(Object.keys(fields)).to.deep.equal(['username', 'new_password', 'confirm_password', 'recovery_email', 'current_password']);
    expect((bodySchema(edit.op).properties as Record<string, Schema>).vars.required).to.equal(undefined);
  });

  it('describes what the server answers, call by call, through a billing walk-through', async () => {
    const userId = await call('users', 'add', { vars: { username: 'ada', new_password: 'secret1', confirm_password: 'secret1', recovery_email: 'ada@example.com' } });
    await call('users', 'get', { user_id: userId });
    await call('users', 'get', { user_id: 999 });
    await call('users', 'getList');
    await call('users', 'getListCount');
    await call('users', 'edit', { user_id: userId, vars: { username: 'ada2' } });
    // users/auth type=any needs a link to a staff member, client or contact, as the reference.
    await server.installation.db
      .insertInto('clients')
      .values({ company_id: 1, user_id: userId as number, status: 'active', date_added: '2024-01-01 00:00:00' })
      .execute();
    expect(await call('users', 'auth', { username: 'ada2', vars: { password: 'secret1' } })).to.equal(true);
    await call('companies', 'get', { company_id: 1 });
    await call('companies', 'getList');
    const companyId = await call('companies', 'add', { vars: { name: 'Second', hostname: 'two.example.com' } });
    await call('companies', 'edit', { company_id: companyId, vars: { hostname: '' } });
    const created = (await call('api_keys', 'add', { vars: { notes: 'for the spec' } })) as { id: number };
    await call('api_keys', 'getList');
    await call('api_keys', 'get', { id: created.id });
    await call('api_keys', 'delete', { id: created.id });
    await call('settings', 'getList');
    await call('settings', 'get', { key: 'timezone' });
    await call('settings', 'set', { key: 'invoice_format', value: 'INV-{num}' });
    const ciphertext = await call('encryption', 'systemEncrypt', { value: 'hello' });
    expect(await call('encryption', 'systemDecrypt', { value: ciphertext })).to.equal('hello');
    await call('encryption', 'systemHash', { value: 'hello' });
    const clientId = await call('clients', 'add', { vars: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', country: 'GB', state: 'LND' } });
    await call('clients', 'get', { client_id: clientId });
    await call('clients', 'getList');
    await call('clients', 'getListCount', { status: 'active' });
    await call('clients', 'edit', { client_id: clientId, vars: { city: 'London' } });
    const contactId = await call('contacts', 'add', { vars: { client_id: clientId, first_name: 'Bo', last_name: 'Bill', email: 'bo@example.com' } });
    await call('contacts', 'getList', { client_id: clientId });
    await call('contacts', 'edit', { contact_id: contactId, vars: { contact_type: 'other' } });
    await call('contacts', 'get', { contact_id: contactId });
    await call('contacts', 'delete', { contact_id: contactId });
    await call('currencies', 'add', { vars: { code: 'CHF', precision: 2, format: "#'###.##", prefix: 'CHF ' } });
    await call('currencies', 'edit', { currency_code: 'CHF', company_id: 1, vars: { suffix: '' } });
    await call('currencies', 'getList', { company_id: 1 });
    await call('currencies', 'get', { currency_code: 'CHF', company_id: 1 });
    await call('currencies', 'format', { amount: '1234.5', code: 'CHF' });
    await call('currencies', 'delete', { currency_code: 'CHF', company_id: 1 });
    await call('currencies', 'get', { currency_code: 'CHF', company_id: 1 });
    const taxId = await call('taxes', 'add', { vars: { name: 'VAT', rate: '20', country: 'GB' } });
    await call('taxes', 'edit', { tax_id: taxId, vars: { level: 1 } });
    await call('taxes', 'getList');
    await call('taxes', 'getApplicable', { client_id: clientId });
    const invoiceId = await call('invoices', 'add', {
      vars: {
        client_id: clientId,
        date_billed: '2026-11-01T00:00:00Z',
        date_due: '2026-12-01T00:00:00Z',
        currency: 'GBP',
        lines: [{ description: 'Hosting', amount: '10.00', qty: '2', tax: true }],
        delivery: ['email'],
      },
    });
    await call('invoices', 'get', { invoice_id: invoiceId });
    await call('invoices', 'get', { invoice_id: 999999 });
    await call('invoices', 'getAll', { client_id: clientId, status: 'all' });
    await call('clients', 'get', { client_id: 999999 });
    const groupId = await call('client_groups', 'add', { vars: { name: 'Retail' } });
    await call('client_groups', 'get', { client_group_id: groupId });
    await call('clients', 'getAll', { client_group_id: groupId, get_settings: true });
    await call('invoices', 'getList', { client_id: clientId });
    await call('invoices', 'getListCount', { status: 'open' });
    const draft = await call('invoices', 'add', {
      vars: { client_id: clientId, date_billed: '2026-11-01 00:00:00 UTC', date_due: '2026-11-02 00:00:00 UTC', currency: 'GBP', lines: [{ description: 'X', amount: '1' }], status: 'draft' },
    });
    await call('invoices', 'edit', { invoice_id: draft, vars: { lines: [{ description: 'Y', amount: '2' }] } });
    await call('invoices', 'delete', { invoice_id: draft });
    const paymentId = await call('transactions', 'add', {
      vars: { client_id: clientId, amount: '30.00', currency: 'GBP', type: 'cc', gateway: 'spec', reference: 'r1', invoices: [{ invoice_id: invoiceId, amount: '5' }] },
    });
    await call('transactions', 'apply', { transaction_id: paymentId, vars: { invoices: [{ invoice_id: invoiceId }] } });
    await call('transactions', 'unApply', { transaction_id: paymentId });
    await call('transactions', 'getApplied', { transaction_id: paymentId });
    await call('transactions', 'getCredits', { client_id: clientId });
    await call('transactions', 'refund', { transaction_id: paymentId, vars: { amount: '2', reference: 'rf1' } });
    await call('transactions', 'get', { transaction_id: paymentId });
    await call('transactions', 'getList', { client_id: clientId });
    await call('transactions', 'getListCount');
    await call('transactions', 'getCredit', { client_id: clientId, currency: 'GBP' });
    await call('invoices', 'void', { invoice_id: invoiceId });
    await call('taxes', 'delete', { tax_id: taxId });
  });

  it('describes what the recurring models answer, call by call, through a recurring walk-through', async () => {
    const moduleId = await install(server, 'module_manager', 'vars[dir]=generic_server');
    await install(server, 'gateway_manager', 'vars[dir]=test_card&vars[settings][secret_key]=test_shapes');
    await server.request('POST', '/api/generic_server.servers/add.json', { body: 'vars[name]=One&vars[hostname]=one.example.com' });
    const loose = await call('pricings', 'add', { vars: { term: 3, period: 'month', price: '25.00', currency: 'USD' } });
    await call('pricings', 'edit', { pricing_id: loose, vars: { setup_fee: '1.00' } });
    for (const method of ['getAll', 'getList', 'getListCount', 'getPeriods']) await call('pricings', method);
    await call('pricings', 'get', { pricing_id: 999999 });
    await call('pricings', 'formatTerm', { term: 3, period: 'month' });
    await call('pricings', 'delete', { pricing_id: loose });
    const groupId = await call('package_groups', 'add', { vars: { names: [{ lang: 'en_us', name: 'Hosting' }] } });
    await call('package_groups', 'edit', { package_group_id: groupId, vars: { description: 'Web hosting' } });
    for (const method of ['getAll', 'getTypes', 'getTypeCount']) await call('package_groups', method);
    const packageId = await call('packages', 'add', {
      vars: {
        names: [{ lang: 'en_us', name: 'Basic' }],
        module_id: moduleId,
        meta: { plan: 'basic' },
        pricing: [{ term: 1, period: 'month', price: '10.00', currency: 'USD' }],
        groups: [groupId],
        prorata_day: 1,
      },
    });
    const pkg = (await call('packages', 'edit', { package_id: packageId, vars: { descriptions: [{ lang: 'en_us', text: 'A start' }] } })) as { pricing: Array<{ id: number }> };
    const pricingId = pkg.pricing[0].id;
    await call('package_groups', 'get', { package_group_id: groupId });
    await call('packages', 'getByPricingId', { package_pricing_id: pricingId });
    for (const method of ['getAll', 'getList', 'getListCount', 'getStatusTypes']) await call('packages', method);
    await call('packages', 'search', { query: 'Bas' });
    await call('packages', 'getAllPackagesByGroup', { package_group_id: groupId });
    const couponId = await call('coupons', 'add', { vars: { code: 'TEN', packages: [packageId], amounts: [{ currency: 'USD', amount: '10', type: 'percent' }] } });
    await call('coupons', 'edit', { coupon_id: couponId, vars: { max_qty: 5 } });
    await call('coupons', 'getByCode', { code: 'TEN' });
    await call('coupons', 'getForPackages', { coupon_id: couponId });
    for (const method of ['getList', 'getListCount', 'getAmountTypes']) await call('coupons', method);
    await call('coupons', 'getCouponAmounts', { coupon_id: couponId });
    await call('coupons', 'incrementUsage', { coupon_id: couponId });
    const clientId = await call('clients', 'add', { vars: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' } });
    const cardId = await call('accounts', 'addCc', { vars: { client_id: clientId, number: '4242424242424242', expiration: '203012', security_code: '123', autodebit: true } });
    await call('accounts', 'editCc', { account_id: cardId, vars: { first_name: 'Augusta' } });
    await call('accounts', 'getCc', { account_id: cardId });
    await call('accounts', 'getAllCcByClient', { client_id: clientId });
    await call('accounts', 'getDebitAccount', { client_id: clientId });
    const bankId = await call('accounts', 'addAch', { vars: { client_id: clientId, account: '000123456789', routing: '110000000' } });
    await call('accounts', 'getAllAchByClient', { client_id: clientId, unverified: true });
    await call('accounts', 'verifyAchDeposits', { account_id: bankId, vars: { first_deposit: '0.32', second_deposit: '0.45' } });
    await call('accounts', 'getAch', { account_id: bankId });
    await call('accounts', 'addDebitAccount', { client_id: clientId, vars: { account_id: bankId } });
    for (const method of ['getCcTypes', 'getAchTypes', 'getTypes']) await call('accounts', method);
    await call('accounts', 'deleteAch', { account_id: bankId });
    const serviceId = await call('services', 'add', { vars: { pricing_id: pricingId, client_id: clientId, status: 'active', coupon_id: couponId, domain: 'ada.example.com' } });
    const addonId = await call('services', 'add', { vars: { pricing_id: pricingId, client_id: clientId, parent_service_id: serviceId, domain: 'addon.example.com' } });
    await call('services', 'edit', { service_id: serviceId, vars: { qty: 2 } });
    await call('services', 'get', { service_id: serviceId });
    await call('services', 'getList', { client_id: clientId, status: 'all' });
    await call('services', 'getListCount', { status: 'all' });
    await call('services', 'getAllByClient', { client_id: clientId });
    await call('services', 'getStatusCount', { client_id: clientId });
    await call('services', 'getSimpleList', { client_id: clientId });
    await call('services', 'search', { query: 'ada' });
    await call('services', 'getSearchCount', { query: 'ada' });
    await call('services', 'getAll');
    await call('services', 'getPricingInfo', { service_id: serviceId });
    await call('services', 'getPackagePricing', { pricing_id: pricingId });
    await call('services', 'getChangeQuote', { service_id: serviceId, pricing_id: pricingId });
    await call('invoices', 'getAutodebitAttempts', { status: 'all' });
    await call('invoices', 'getAutodebitAttemptCount', { status: 'all' });
    await call('services', 'getRenewalPrice', { service_id: serviceId });
    await call('services', 'getNextRenewDate', { last_renew_date: '2027-01-31 00:00:00', term: 1, period: 'month' });
    await call('services', 'getNextInvoiceDate', { service_id: serviceId });
    await call('services', 'addField', { service_id: serviceId, vars: { key: 'note', value: 'vip' } });
    await call('services', 'getAllChildren', { parent_service_id: serviceId });
    await call('services', 'hasChildren', { service_id: serviceId });
    await call('services', 'hasParent', { service_id: addonId });
    const invoiceId = await call('invoices', 'createFromServices', { client_id: clientId, service_ids: [serviceId], currency: 'USD', due_date: '2030-01-01' });
    await call('invoices', 'appendServices', { invoice_id: invoiceId, service_ids: [addonId] });
    await call('invoices', 'createRenewalFromService', { service_id: serviceId });
    await call('invoices', 'getAllWithService', { service_id: serviceId });
    for (const method of [
      'getActions',
      'getStatusTypes',
      'getAllRenewing',
      'getAllPaidPending',
      'getAllRenewableUnpaid',
      'getRenewableUnpaidCount',
      'getPendingSuspensionList',
      'getPendingCancelationCount',
    ])
      await call('services', method);
    await call('services', 'cancel', { service_id: serviceId, vars: { date_canceled: 'end_of_term' } });
    await call('services', 'unCancel', { service_id: serviceId });
    await call('services', 'suspend', { service_id: serviceId, vars: { suspension_reason: 'Spec' } });
    await call('services', 'unsuspend', { service_id: serviceId });
    await call('services', 'renew', { service_id: serviceId });
    await call('services', 'move', { service_id: serviceId, client_id: clientId });
    for (const method of ['getList', 'getListCount', 'getTypes']) await call('invoice_notices', method);
    await call('invoice_notices', 'get', { notice_id: 1 });
  });

  it('is a check that can fail: an answer off its declared shape is refused', () => {
    const schema = responseSchema(operation('invoices', 'get').op);
    expect(ajv.validate(schema, { response: { id: 1 } })).to.equal(false);
    expect(ajv.validate(schema, { response: false })).to.equal(true);
    expect(ajv.validate(schema, { response: null })).to.equal(false);
    const user = responseSchema(operation('users', 'get').op);
    expect(ajv.validate(user, { response: { id: '1', username: 'a', recovery_email: null, two_factor_mode: 'none', date_added: '2026-01-01 00:00:00' } })).to.equal(false);
    expect(ajv.validate(user, { response: { id: 1, username: 'a', recovery_email: null, two_factor_mode: 'none', date_added: '2026-01-01T00:00:00Z' } })).to.equal(false);
  });
});
