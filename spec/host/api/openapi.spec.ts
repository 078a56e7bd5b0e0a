import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import { callable } from '../../../core/kernel/callable';
import { model } from '../../../core/kernel/model';
import { classEntry } from '../../../core/kernel/model-entry';
import { int, list, object, string } from '../../../core/kernel/parameter';
import { SYSTEM_COMPANY } from '../../../core/settings-catalogue';
import { OpenApiDocument } from '../../../host/api/openapi';
import { ParameterObject } from '../../../host/api/openapi/types';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { startTestServer, TestServer } from '../../support/test-server';

/** The extensions shipped in the project, loaded into worker threads as `tally serve` loads them. */
const SHIPPED_EXTENSIONS = path.resolve(__dirname, '../../../../extensions');

/** A model standing in for an extension's: it is not a core model, yet must be documented like one. */
@model('spec_docs.widgets')
class Widgets {
  @callable({ description: 'Make a <b>widget</b> & "friends". Second sentence.', params: [object('vars'), list('tags', { default: [] })] })
  make(_vars: Record<string, unknown>, _tags: unknown[]) {
    return 1;
  }

  @callable({ params: [int('count', { default: null }), string('mode', { optional: true })] })
  count(_count: number | null, _mode: string) {
    return 0;
  }

  @callable({ params: [int('id')] })
  _internal(_id: number) {
    return 'decorated by mistake, yet never callable';
  }

  notCallable() {
    return 'plain member';
  }
}

const CONTRACT_MESSAGES: Record<string, string> = {
  '400': 'The request cannot be fulfilled due to bad syntax.',
  '401': 'The authorization details given appear to be invalid.',
  '403': 'The requested resource is not accessible.',
  '404': 'The requested resource does not exist.',
  '415': 'The format requested is not supported by the server.',
  '500': 'An unexpected error occured.',
  '503': 'The requested resource is currently unavailable due to maintenance.',
};

/** Every `$ref` must name something the document holds: the schema validator does not follow them. */
function danglingRefs(document: unknown): string[] {
  const missing: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const target = value
          .replace(/^#\//, '')
          .split('/')
          .reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part], document);
        if (target === undefined) missing.push(value);
      } else walk(value);
    }
  };
  walk(document);
  return missing;
}

describe('the OpenAPI document at /api/openapi.json', () => {
  let server: TestServer;
  let document: OpenApiDocument;
  before(async () => {
    server = await startTestServer({ extensionsDir: SHIPPED_EXTENSIONS });
    server.installation.addModel(classEntry(Widgets));
    const res = await server.request('GET', '/api/openapi.json');
    expect(res.status).to.equal(200);
    expect(res.contentType).to.match(/^application\/json/);
    document = res.json;
  });
  after(() => server.close());

  describe('credentials', () => {
    it('answers 401 with the contract message without credentials, or with a wrong key', async () => {
      for (const auth of [false, { user: server.credential.user, key: 'wrong' }] as const) {
        const res = await server.request('GET', '/api/openapi.json', { auth });
        expect(res.status).to.equal(401);
        expect(res.json).to.deep.equal({ message: CONTRACT_MESSAGES['401'] });
        expect(res.text).not.to.contain('paths');
      }
    });

    it('is served with header auth and with Basic, also under /index.php', async () => {
      const basic = await server.request('GET', '/api/openapi.json', { auth: { basic: server.credential } });
      expect(basic.status).to.equal(200);
      const indexPhp = await server.request('GET', '/index.php/api/openapi.json');
      expect(indexPhp.status).to.equal(200);
      expect(indexPhp.json.servers).to.deep.equal([{ url: `${server.url.replace('localhost', '127.0.0.1')}/index.php` }]);
    });

    it('is served in maintenance mode too: reading the reference changes nothing', async () => {
      await server.installation.settings.set(SYSTEM_COMPANY, 'maintenance_mode', 'true');
      try {
        expect((await server.request('GET', '/api/users/getListCount.json')).status).to.equal(503);
        expect((await server.request('GET', '/api/openapi.json')).status).to.equal(200);
      } finally {
        await server.installation.settings.set(SYSTEM_COMPANY, 'maintenance_mode', 'false');
      }
    });

    it('is read with GET only', async () => {
      const res = await server.request('POST', '/api/openapi.json', { body: 'a=1' });
      expect(res.status).to.equal(405);
    });
  });

  it('validates against the OpenAPI 3.1 schema, and the validator does refuse a broken document', async () => {
    const validator = new Validator();
    const result = await validator.validate(document as unknown as Record<string, unknown>);
    expect(result.errors, JSON.stringify(result.errors, null, 1)?.slice(0, 2000)).to.equal(undefined);
    expect(result.valid).to.equal(true);
    expect(validator.version).to.equal('3.1');
    const broken = structuredClone(document) as unknown as { paths: Record<string, Record<string, { parameters: unknown[] }>> };
    broken.paths['/api/users/get.{format}'].get.parameters.push({ name: 'x', in: 'body' });
    expect((await new Validator().validate(broken)).valid).to.equal(false);
  });

  it('has no dangling $ref', () => {
    expect(danglingRefs(document)).to.deep.equal([]);
  });

  it('lists every callable method of every registered model, and nothing else', () => {
    const installation = server.installation;
    const expected = installation
      .models()
      .flatMap((entry) => [...entry.callables.keys()].filter((m) => installation.isCallable(entry.name, m)).map((m) => `${entry.name}/${m}`))
      .sort();
    const listed = Object.values(document.paths)
      .flatMap((item) => Object.values(item).map((op) => `${op!['x-tally-model']}/${op!['x-tally-method']}`))
      .sort();
    expect(expected).to.include.members(['users/get', 'users/add', 'encryption/systemEncrypt', 'spec_docs.widgets/make']);
    expect(
      expected.filter((call) => call.startsWith('support_manager.')),
      "the shipped plugin's models",
    ).not.to.be.empty;
    expect(listed).to.deep.equal(expected);
    for (const call of expected) {
      const [model, method] = call.split('/');
      expect(document.paths, call).to.have.property(`/api/${model}/${method}.{format}`);
    }
    expect(listed).not.to.include.members(['spec_docs.widgets/_internal', 'spec_docs.widgets/notCallable']);
  });

  it('gives each operation its verb: the declared one, else POST for sets and lists, else GET', () => {
    expect(Object.keys(document.paths['/api/users/get.{format}'])).to.deep.equal(['get']);
    expect(Object.keys(document.paths['/api/users/add.{format}'])).to.deep.equal(['post']);
    expect(Object.keys(document.paths['/api/users/edit.{format}'])).to.deep.equal(['put']);
    expect(Object.keys(document.paths['/api/users/delete.{format}'])).to.deep.equal(['delete']);
    expect(Object.keys(document.paths['/api/spec_docs.widgets/make.{format}'])).to.deep.equal(['post']);
    expect(Object.keys(document.paths['/api/spec_docs.widgets/count.{format}'])).to.deep.equal(['get']);
  });

  it('puts GET and DELETE parameters in the query, with types, required and defaults', () => {
    const get = document.paths['/api/users/get.{format}'].get!;
    expect(get.parameters[0]).to.deep.equal({ $ref: '#/components/parameters/format' });
    expect(get.parameters[1]).to.deep.equal({ name: 'user_id', in: 'query', required: true, schema: { type: 'integer' } });
    const count = document.paths['/api/spec_docs.widgets/count.{format}'].get!.parameters.slice(1) as ParameterObject[];
    expect(count[0]).to.deep.equal({ name: 'count', in: 'query', required: false, schema: { type: ['integer', 'null'], default: null } });
    expect(count[1]).to.include({ name: 'mode', required: false });
    expect(count[1].schema).to.deep.include({ type: 'string', 'x-tally-default-unknown': true });
    expect(count[1].description).to.contain('always send it');
    expect(document.components.parameters.format.schema).to.deep.include({ enum: ['json', 'xml', 'php'] });
  });

  it('puts POST and PUT parameters in a form body, sets and lists as deepObject brackets', () => {
    const make = document.paths['/api/spec_docs.widgets/make.{format}'].post!;
    const form = make.requestBody!.content['application/x-www-form-urlencoded'];
    expect(make.requestBody!.required).to.equal(true);
    expect(form.schema).to.deep.include({ type: 'object', required: ['vars'], additionalProperties: false });
    expect((form.schema as { properties: Record<string, unknown> }).properties.tags).to.deep.include({ type: 'array', default: [] });
    expect(form.encoding).to.deep.equal({ vars: { style: 'deepObject', explode: true }, tags: { style: 'deepObject', explode: true } });
    expect(make.requestBody!.content).to.have.keys('application/x-www-form-urlencoded', 'multipart/form-data', 'application/json');
    expect(make.parameters).to.deep.equal([{ $ref: '#/components/parameters/format' }]);
  });

  it('carries the @callable description, its first sentence as summary', () => {
    const make = document.paths['/api/spec_docs.widgets/make.{format}'].post!;
    expect(make.description).to.equal('Make a <b>widget</b> & "friends". Second sentence.');
    expect(make.summary).to.equal('Make a <b>widget</b> & "friends".');
    expect(document.paths['/api/users/get.{format}'].get!.description).to.equal('Fetch a user by id; false when there is none.');
  });

  it('documents every error status with the contract message, 413 for body verbs only', () => {
    const get = document.paths['/api/users/get.{format}'].get!;
    const add = document.paths['/api/users/add.{format}'].post!;
    expect(Object.keys(get.responses).sort()).to.deep.equal(['200', '400', '401', '403', '404', '415', '500', '503']);
    expect(Object.keys(add.responses)).to.include('413');
    for (const [status, message] of Object.entries(CONTRACT_MESSAGES)) {
      const ref = (get.responses[status] as { $ref: string }).$ref.split('/').pop()!;
      const examples = document.components.responses[ref].content!['application/json'].examples!;
      expect(
        Object.values(examples).map((e) => (e.value as { message: string }).message),
        status,
      ).to.include(message);
    }
    const internal = document.components.responses.InternalError.content!['application/json'].examples!;
    expect(internal.default_value.value).to.deep.equal({ message: CONTRACT_MESSAGES['500'], response: 'Internal error: Failed to retrieve the default value' });
    const badRequest = document.components.responses.BadRequest.content!;
    expect(badRequest['application/json'].schema).to.deep.equal({ $ref: '#/components/schemas/BadRequestBody' });
    expect(badRequest['application/xml'].examples!.bad_request.value).to.contain('<users>').and.to.contain('<message>');
    expect(badRequest['text/plain'].examples!.bad_request.value).to.match(/^a:2:\{s:7:"message";/);
  });

  it('declares header auth (both headers together) and Basic', () => {
    expect(document.security).to.deep.equal([{ apiUser: [], apiKey: [] }, { basic: [] }]);
    expect(document.components.securitySchemes.apiKey).to.include({ type: 'apiKey', in: 'header', name: 'SERVICE-API-KEY' });
    expect(document.components.securitySchemes.basic).to.include({ type: 'http', scheme: 'basic' });
  });
});

describe('the reference page at /api/reference.html', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    server.installation.addModel(classEntry(Widgets));
  });
  after(() => server.close());

  it('asks for credentials with a Basic challenge a browser can answer', async () => {
    const res = await server.request('GET', '/api/reference.html', { auth: false });
    expect(res.status).to.equal(401);
    expect(res.json).to.deep.equal({ message: CONTRACT_MESSAGES['401'] });
    const raw = await fetch(`${server.url}/api/reference.html`);
    expect(raw.headers.get('www-authenticate')).to.match(/^Basic realm=/);
  });

  it('shows every operation with its verb, parameters and a curl line, escaping what it shows', async () => {
    const res = await server.request('GET', '/api/reference.html', { auth: { basic: server.credential } });
    expect(res.status).to.equal(200);
    expect(res.contentType).to.match(/^text\/html/);
    const document = (await server.request('GET', '/api/openapi.json')).json as OpenApiDocument;
    for (const item of Object.values(document.paths)) {
      for (const op of Object.values(item)) expect(res.text).to.contain(`id="${op!.operationId}"`);
    }
    expect(res.text).to.contain('<span class="verb put">PUT</span><code>/api/users/edit.{format}</code>');
    expect(res.text).to.contain('<td class="name d0"><code>user_id</code></td><td data-label="Type">integer</td><td data-label="Required">yes</td>');
    expect(res.text).to.contain('<code>vars[lines][i][amount]</code></td><td data-label="Type">string (decimal)</td><td data-label="Required">yes</td>');
    expect(res.text).to.contain('<code>line_items[].total</code></td><td data-label="Type">string (decimal)</td>');
    expect(res.text).to.contain('Make a &#60;b&#62;widget&#60;/b&#62; &#38; &#34;friends&#34;');
    expect(res.text).not.to.contain('<b>widget');
    expect(res.text).to.contain('--data-urlencode &#34;vars[field]=value&#34;');
    expect(res.text).to.contain(CONTRACT_MESSAGES['503']);
  });

  it('lets the search find a call typed as the docs write it (invoices/add, /api/invoices/add.json)', async () => {
    const page = (await server.request('GET', '/api/reference.html', { auth: { basic: server.credential } })).text;
    const sections = [...page.matchAll(/<section class="op" id="([^"]+)"[^>]* data-search="([^"]*)"/g)].map(([, id, text]) => ({ id, text }));
    expect(sections.length).to.be.greaterThan(60);
    // As the page's script matches: every word typed, lower-cased, is part of the section's text.
    const found = (typed: string) =>
      sections
        .filter((s) =>
          typed
            .toLowerCase()
            .split(/\s+/)
            .filter(Boolean)
            .every((w) => s.text.includes(w)),
        )
        .map((s) => s.id);
    // Typed words are parts of the text, so a name that begins another is found with it (as getcredit below).
    for (const typed of ['invoices/add', 'Invoices/Add']) expect(found(typed), typed).to.deep.equal(['invoices.add', 'invoices.addDelivery', 'invoices.addRecurring', 'invoices.addRecurringDelivery']);
    expect(found('/api/invoices/add.json')).to.deep.equal(['invoices.add']);
    expect(found('transactions/getcredit')).to.deep.equal(['transactions.getCredit', 'transactions.getCreditedAmount', 'transactions.getCredits']);
  });

  it('forbids the page from loading anything, and from running any script but its own search', async () => {
    const headers = { 'SERVICE-API-USER': server.credential.user, 'SERVICE-API-KEY': server.credential.key };
    const raw = await fetch(`${server.url}/api/reference.html`, { headers });
    const policy = raw.headers.get('content-security-policy')!;
    expect(policy).to.contain("default-src 'none'");
    const text = await raw.text();
    expect(text).not.to.match(/<link|src=/i);
    const scripts = [...text.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
    expect(scripts).to.have.length(1);
    expect(text.match(/<script/g)).to.have.length(1);
    const hash = createHash('sha256').update(scripts[0]).digest('base64');
    expect(policy).to.match(new RegExp(`script-src 'sha256-${hash.replace(/[+/]/g, '\\$&')}';`));
  });
});
