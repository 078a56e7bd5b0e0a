import { expect } from 'chai';
import { Credential, TestServer } from '../../../support/test-server';
import { addInvoice, newCompany, pay } from '../billing/fixtures';
import { addCard, addClient, addPackage, call, ok, recurringServer } from '../recurring/support';

/**
 * Every method the API lists in its OpenAPI document, called with a second company's key and
 * company 1's ids in every id-named parameter (and in `vars`): nothing of company 1's comes back
 * and nothing of it changes. Company 1's records carry a marker in every free-text field the
 * second company never sends, so any answer holding the marker is a leak, whatever its shape. The
 * hand-written tenancy specs say what each model answers; this one keeps every method listed —
 * those added later too — inside the rule without anyone remembering to add it.
 */
const MARK = 'qzsweepmarkq';

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; items?: Schema; enum?: unknown[] };
type Operation = { verb: string; path: string; params: Array<{ name: string; schema: Schema }>; body?: Schema };

describe("tenancy sweep: every listed method, with another company's key and company 1's ids", function () {
  this.timeout(600_000);
  let server: TestServer;
  let intruder: Credential;
  let operations: Operation[];
  /** Company 1's ids by the parameter names that carry them. */
  const ids: Record<string, number> = {};

  before(async () => {
    let moduleId: number;
    ({ server, moduleId } = await recurringServer());
    await ok(server, 'PUT', 'companies/edit', { company_id: 1, vars: { name: `${MARK} Hosting` } });
    ({ pricingId: ids.pricing_id, packageId: ids.package_id } = await addPackage(server, moduleId, { names: [{ lang: 'en_us', name: `${MARK} plan` }] }));
    ids.client_group_id = await ok(server, 'POST', 'client_groups/add', { vars: { name: `${MARK} group` } });
    ids.client_id = await addClient(server, { first_name: `${MARK}first`, last_name: `${MARK}last`, email: `${MARK}@example.com`, company: `${MARK} Ltd` });
    ids.contact_id = await ok(server, 'POST', 'contacts/add', { vars: { client_id: ids.client_id, first_name: `${MARK}c`, last_name: `${MARK}d`, email: `${MARK}.c@example.com` } });
    ids.service_id = await ok(server, 'POST', 'services/add', { vars: { client_id: ids.client_id, pricing_id: ids.pricing_id, status: 'active', use_module: 'false' } });
    ids.invoice_id = await addInvoice(server, ids.client_id, { lines: [{ description: `${MARK} line`, amount: '50.00', qty: 1 }], delivery: ['paper'], note_public: `${MARK} note` });
    ids.invoice_delivery_id = (await ok(server, 'GET', 'invoices/getDelivery', { invoice_id: ids.invoice_id }))[0].id;
    ids.transaction_id = await pay(server, { client_id: ids.client_id, amount: '20.00', transaction_id: `${MARK}-ref`, amounts: [{ invoice_id: ids.invoice_id, amount: '20.00' }] });
    ids.account_id = await addCard(server, ids.client_id);
    ids.tax_id = await ok(server, 'POST', 'taxes/add', { vars: { name: `${MARK} VAT`, amount: '20' } });
    ids.note_id = await ok(server, 'POST', 'clients/addNote', { client_id: ids.client_id, staff_id: 0, vars: { title: `${MARK} title`, description: `${MARK} text` } });
    ids.package_group_id = await ok(server, 'POST', 'package_groups/add', { vars: { names: [{ lang: 'en_us', name: `${MARK} shelf` }], type: 'standard' } });
    ids.coupon_id = await ok(server, 'POST', 'coupons/add', { vars: { code: `${MARK}CODE`, packages: [ids.package_id], amounts: [{ currency: 'USD', amount: '10', type: 'percent' }] } });
    ids.user_id = (await ok(server, 'GET', 'clients/get', { client_id: ids.client_id })).user_id ?? 0;
    ids.company_id = 1;
    ids.module_id = moduleId;
    ids.gateway_id = (await ok(server, 'GET', 'gateway_manager/getByClass', { class: 'test_card' }))[0].id;
    ({ auth: intruder } = await newCompany(server, 'Intruder'));
    operations = await listedOperations(server);
  });
  after(() => server?.close());

  it('lists enough of the API for the sweep to mean something', () => {
    expect(operations.filter((o) => o.verb === 'GET').length).to.be.greaterThan(250);
    expect(operations.filter((o) => o.verb !== 'GET').length).to.be.greaterThan(150);
  });

  it("no read answers anything of company 1's, and none fails with a 500", async () => {
    const leaks: string[] = [];
    const statuses: Record<number, number> = {};
    let markedForOwner = 0;
    for (const operation of operations.filter((o) => o.verb === 'GET')) {
      for (const params of attempts(operation)) {
        const res = await call(server, 'GET', operation.path, params, intruder);
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status >= 500 || res.text.toLowerCase().includes(MARK)) leaks.push(`${operation.path} ${JSON.stringify(params)} → ${res.status} ${res.text.slice(0, 300)}`);
        // The same call with company 1's own key: the marker is found where the record is answered, so its absence above means something.
        if ((await call(server, 'GET', operation.path, params)).text.toLowerCase().includes(MARK)) markedForOwner++;
      }
    }
    expect(leaks).to.deep.equal([]);
    expect(statuses[200], JSON.stringify(statuses)).to.be.greaterThan(150);
    expect(markedForOwner).to.be.greaterThan(30);
  });

  it("no write changes or reveals anything of company 1's, and none fails with a 500", async () => {
    const before = await snapshot();
    const leaks: string[] = [];
    for (const operation of operations.filter((o) => o.verb !== 'GET')) {
      for (const params of attempts(operation)) {
        const res = await call(server, operation.verb, operation.path, params, intruder);
        if (res.status >= 500 || res.text.toLowerCase().includes(MARK)) leaks.push(`${operation.verb} ${operation.path} ${JSON.stringify(params)} → ${res.status} ${res.text.slice(0, 300)}`);
      }
    }
    expect(leaks).to.deep.equal([]);
    expect(await snapshot()).to.deep.equal(before);
  });

  /** Company 1's records as its own key reads them. */
  async function snapshot(): Promise<Record<string, unknown>> {
    const reads: Array<[string, Record<string, unknown>]> = [
      ['companies/get', { company_id: 1 }],
      ['clients/get', { client_id: ids.client_id }],
      ['clients/getNoteList', { client_id: ids.client_id }],
      ['contacts/getAll', { client_id: ids.client_id }],
      ['services/getList', { client_id: ids.client_id, status: 'all' }],
      ['invoices/getList', { client_id: ids.client_id, status: 'all' }],
      ['invoices/get', { invoice_id: ids.invoice_id }],
      ['invoices/getDelivery', { invoice_id: ids.invoice_id }],
      ['transactions/getList', { client_id: ids.client_id, status: 'all' }],
      ['accounts/getAllCcByClient', { client_id: ids.client_id }],
      ['packages/get', { package_id: ids.package_id }],
      ['package_groups/get', { package_group_id: ids.package_group_id }],
      ['coupons/get', { coupon_id: ids.coupon_id }],
      ['taxes/get', { tax_id: ids.tax_id }],
      ['client_groups/get', { client_group_id: ids.client_group_id }],
      ['users/getListCount', {}],
      ['gateway_manager/get', { gateway_id: ids.gateway_id }],
      ['module_manager/get', { module_id: ids.module_id }],
      ['api_keys/getList', {}],
    ];
    const taken: Record<string, unknown> = {};
    for (const [path, params] of reads) taken[path] = withoutUseTimes(await ok(server, 'GET', path, params));
    return taken;
  }

  /** The parameters each call is made with: company 1's ids where the names say so; `id` alone gets each of them in turn. */
  function attempts(operation: Operation): Array<Record<string, unknown>> {
    const base: Record<string, unknown> = {};
    for (const { name, schema } of operation.params) base[name] = valueFor(name, schema);
    for (const [name, schema] of Object.entries(operation.body?.properties ?? {})) base[name] = valueFor(name, schema, 0);
    const takesId = operation.params.some((p) => p.name === 'id') || 'id' in (operation.body?.properties ?? {});
    if (!takesId) return [base];
    return [...new Set(Object.values(ids))].map((id) => ({ ...base, id }));
  }

  function valueFor(name: string, schema: Schema, depth = 0): unknown {
    if (name in ids) return ids[name];
    const singular = name.replace(/_ids$/, '_id');
    if (singular !== name && singular in ids) return [ids[singular]];
    const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
    if (schema.enum?.length) return schema.enum[0];
    switch (type) {
      case 'integer':
      case 'number':
        return 1;
      case 'boolean':
        return 'true';
      case 'array':
        return depth < 2 && schema.items ? [valueFor(name, schema.items, depth + 1)] : [];
      case 'object': {
        const value: Record<string, unknown> = {};
        if (depth < 2) for (const [key, inner] of Object.entries(schema.properties ?? {})) value[key] = valueFor(key, inner, depth + 1);
        return value;
      }
      default:
        return 'sweep';
    }
  }
});

/** Every operation of /api/openapi.json: its verb, `model/method`, query parameters and form body. */
async function listedOperations(server: TestServer): Promise<Operation[]> {
  const document = (await server.request('GET', '/api/openapi.json')).json;
  const operations: Operation[] = [];
  for (const [route, item] of Object.entries<Record<string, any>>(document.paths)) {
    const path = /^\/api\/(.+)\.\{format\}$/.exec(route)?.[1];
    if (!path) continue;
    for (const verb of ['get', 'post', 'put', 'delete']) {
      const operation = item[verb];
      if (!operation) continue;
      const params = (operation.parameters ?? []).filter((p: any) => p.name).map((p: any) => ({ name: p.name, schema: p.schema ?? {} }));
      const body = operation.requestBody?.content?.['application/x-www-form-urlencoded']?.schema;
      operations.push({ verb: verb.toUpperCase(), path, params, body });
    }
  }
  return operations;
}

/** A record list without the times a credential was last used, which every call changes. */
function withoutUseTimes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUseTimes);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !/^(last_used|date_last_used|last_address)/.test(key))
        .map(([key, inner]) => [key, withoutUseTimes(inner)]),
    );
  }
  return value;
}
