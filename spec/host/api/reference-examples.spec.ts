import { spawn } from 'node:child_process';
import Ajv2020 from 'ajv/dist/2020';
import { expect } from 'chai';
import { OpenApiDocument } from '../../../host/api/openapi';
import { startTestServer, TestServer } from '../../support/test-server';

const CORE = ['users', 'api_keys', 'settings', 'companies', 'encryption', 'clients', 'contacts', 'currencies', 'taxes', 'invoices', 'transactions'];

/** Codes that mean the example itself was wrong: a parameter missing, unknown or malformed. */
const MALFORMED = new Set(['empty', 'unknown', 'format', 'length']);

const unescapeHtml = (text: string) => text.replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)));

function bash(script: string, env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { env: { PATH: process.env.PATH ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Writes come before deletes, so every example finds the records (id 1) it names; revoking credential 1 (the one in use) comes last. */
const stage = (model: string, method: string) => (model === 'api_keys' && method === 'delete' ? 3 : /^(delete|void|refund|unapply)$/.test(method) ? 2 : /^(add|edit|apply|set)$/.test(method) ? 1 : 0);

/**
 * The curl line of every core method on /api/reference.html runs as written (copied off the page)
 * against an installation holding one record of each kind: it answers 200, or a 400 that refuses
 * the state of a record (a client that has invoices is not deleted), never one that says a
 * parameter of the example is missing, unknown or malformed.
 */
describe('the reference page: curl lines that work', function () {
  // Hundreds of curl lines, each a process: about two minutes on a quiet 2-core machine, and more
  // than five while the machine runs the other database's suite or other work beside it.
  this.timeout(900_000);
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    const post = (path: string, body: string) => server.request('POST', path, { body });
    await post('/api/users/add.json', 'vars[username]=grace&vars[new_password]=secret12&vars[confirm_password]=secret12');
    await post('/api/clients/add.json', 'vars[first_name]=Grace&vars[last_name]=Hopper&vars[email]=grace@example.com');
    await post('/api/taxes/add.json', 'vars[name]=Sales&vars[rate]=5');
    await post(
      '/api/invoices/add.json',
      'vars[client_id]=1&vars[date_billed]=2026-01-01T00:00:00Z&vars[date_due]=2026-02-01T00:00:00Z&vars[currency]=USD&vars[lines][0][description]=X&vars[lines][0][amount]=100',
    );
    await post('/api/transactions/add.json', 'vars[client_id]=1&vars[amount]=20&vars[currency]=USD&vars[invoices][0][invoice_id]=1');
  });
  after(() => server.close());

  it('shows an example answer of each declared shape, valid against the document', async () => {
    const page = await server.request('GET', '/api/reference.html', { auth: { basic: server.credential } });
    const document = (await server.request('GET', '/api/openapi.json')).json as OpenApiDocument;
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const answers = page.text
      .split('<section class="op" id="')
      .slice(1)
      .map((section) => [section.slice(0, section.indexOf('"')), section.match(/<summary>Example answer<\/summary><pre>([\s\S]*?)<\/pre>/)?.[1]])
      .filter((pair): pair is [string, string] => pair[1] !== undefined);
    expect(answers.length).to.be.at.least(60);
    for (const [id, pre] of answers) {
      const operation = Object.values(document.paths)
        .flatMap((item) => Object.values(item))
        .find((op) => op!.operationId === id)!;
      const schema = (operation.responses['200'] as { content: Record<string, { schema: object }> }).content['application/json'].schema;
      expect(ajv.validate(schema, JSON.parse(unescapeHtml(pre))), `${id}: ${ajv.errorsText()}`).to.equal(true);
    }
    expect(page.text).to.contain('&#34;total&#34;: &#34;10.0000&#34;');
  });

  it('puts every required field in the example, with values of its kind', async () => {
    const page = await server.request('GET', '/api/reference.html', { auth: { basic: server.credential } });
    const html = unescapeHtml(page.text);
    expect(html).to.contain('--data-urlencode "vars[lines][0][description]=Hosting"');
    expect(html).to.contain('--data-urlencode "vars[date_due]=2026-11-01T00:00:00Z"');
    expect(html).to.contain('--data-urlencode "vars[confirm_password]=secret12"');
    expect(html).to.match(/curl -G -H "SERVICE-API-USER: \$TALLY_USER" -H "SERVICE-API-KEY: \$TALLY_KEY" "\$TALLY_URL\/api\/users\/get\.json" \\\n {2}--data-urlencode "user_id=1"/);
  });

  it('answers every core method as written, with real parameters', async () => {
    const page = await server.request('GET', '/api/reference.html', { auth: { basic: server.credential } });
    const examples = [...page.text.matchAll(/<section class="op" id="([^"]+)"[\s\S]*?<pre class="curl">([\s\S]*?)<\/pre><\/section>/g)]
      .map(([, id, pre]) => ({ model: id.split('.')[0], method: id.split('.').slice(1).join('.'), curl: unescapeHtml(pre) }))
      .filter((e) => CORE.includes(e.model))
      .sort((a, b) => stage(a.model, a.method) - stage(b.model, b.method));
    expect(examples.length).to.be.at.least(60);
    // An installation credential (home company 1), as companies/add, system settings and staff
    // identities need one; a company credential's 403 for them is proven in trust/tenancy.
    const installation = server.installationCredential;
    const env = { TALLY_URL: server.url, TALLY_USER: installation.user, TALLY_KEY: installation.key };
    const answers: Record<string, number> = {};
    const wrong: string[] = [];
    for (const { model, method, curl } of examples) {
      const run = await bash(`${curl} -sS -w '\\n%{http_code}'`, env);
      const [body, status] = [run.stdout.slice(0, run.stdout.lastIndexOf('\n')), Number(run.stdout.slice(run.stdout.lastIndexOf('\n') + 1))];
      answers[`${model}/${method}`] = status;
      const errors = status === 400 ? (JSON.parse(body).errors as Record<string, Record<string, string>>) : {};
      const malformed = Object.entries(errors).filter(([, codes]) => Object.keys(codes).some((c) => MALFORMED.has(c)));
      if ((status !== 200 && status !== 400) || malformed.length) wrong.push(`${model}/${method} answered ${status} ${body}\n${curl}`);
    }
    expect(wrong, wrong.join('\n\n')).to.deep.equal([]);
    const ok = Object.values(answers).filter((s) => s === 200).length;
    expect(ok / examples.length, JSON.stringify(answers)).to.be.greaterThan(0.85);
  });
});
