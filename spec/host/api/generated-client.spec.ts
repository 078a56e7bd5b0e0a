import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { startTestServer, TestServer } from '../../support/test-server';

const ROOT = path.resolve(__dirname, '../../../..');
const GENERATOR = path.join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/**
 * A program a client author would write against the types generated from openapi.json: a small
 * typed wrapper (path → query or body → answer), correct calls, and calls that must not compile
 * (each marked @ts-expect-error, which itself fails to compile if the mistake goes unnoticed, as it
 * would with untyped `vars` or an untyped `response`).
 */
const CLIENT = `import type { paths } from './tally-api';

type Verb = 'get' | 'post' | 'put' | 'delete';
type Op<P extends keyof paths, V extends Verb> = V extends keyof paths[P] ? NonNullable<paths[P][V]> : never;
type Answer<P extends keyof paths, V extends Verb> = Op<P, V> extends { responses: { 200: { content: { 'application/json': infer R } } } } ? R : never;
type Query<P extends keyof paths> = Op<P, 'get'> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
type Body<P extends keyof paths, V extends 'post' | 'put'> = Op<P, V> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

declare function get<P extends keyof paths>(path: P, query: Query<P>): Promise<Answer<P, 'get'>>;
declare function post<P extends keyof paths>(path: P, body: Body<P, 'post'>): Promise<Answer<P, 'post'>>;
declare function put<P extends keyof paths>(path: P, body: Body<P, 'put'>): Promise<Answer<P, 'put'>>;

export async function billing(): Promise<string> {
  const client = await post('/api/clients/add.{format}', { vars: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', country: 'GB' } });
  const clientId: number = client.response;
  const added = await post('/api/invoices/add.{format}', {
    vars: {
      client_id: clientId,
      date_billed: '2026-11-01T00:00:00Z',
      date_due: '2026-12-01T00:00:00Z',
      currency: 'USD',
      lines: [{ description: 'Hosting', amount: '10.00', qty: '2', tax: true }],
      delivery: ['email'],
    },
  });
  const invoice = (await get('/api/invoices/get.{format}', { invoice_id: added.response })).response;
  if (invoice === false) return 'none';
  const status: 'active' | 'draft' | 'proforma' | 'void' = invoice.status;
  const lineTotals: string[] = invoice.line_items.map((line) => line.total);
  const taxed: boolean = invoice.line_items[0].tax;
  const user = await put('/api/users/edit.{format}', { user_id: 1, vars: { recovery_email: 'ada@example.com' } });
  const email: string | null = user.response.recovery_email;
  const settings: Record<string, string> = (await get('/api/settings/getList.{format}', {})).response;
  const payment = await post('/api/transactions/add.{format}', { vars: { client_id: clientId, amount: '5.00', currency: 'USD', invoices: [{ invoice_id: invoice.id }] } });
  const credit: string = (await get('/api/transactions/getCredit.{format}', { client_id: clientId, currency: 'USD' })).response;
  return [status, ...lineTotals, taxed, email, settings.timezone, payment.response, credit, invoice.date_closed ?? 'open'].join(' ');
}

export async function mistakes(): Promise<void> {
  // @ts-expect-error an invoice needs its lines
  await post('/api/invoices/add.{format}', { vars: { client_id: 1, date_billed: 'x', date_due: 'x', currency: 'USD' } });
  // @ts-expect-error client_id is a number
  await post('/api/invoices/add.{format}', { vars: { client_id: 'one', date_billed: 'x', date_due: 'x', currency: 'USD', lines: [] } });
  // @ts-expect-error a delivery method is one of the four
  await post('/api/invoices/add.{format}', { vars: { client_id: 1, date_billed: 'x', date_due: 'x', currency: 'USD', lines: [], delivery: ['fax'] } });
  // @ts-expect-error invoices/get takes invoice_id
  await get('/api/invoices/get.{format}', { id: 1 });
  const invoice = (await get('/api/invoices/get.{format}', { invoice_id: 1 })).response;
  // @ts-expect-error the answer may be false (no such invoice)
  invoice.total;
  // @ts-expect-error money is a decimal string, not a number
  const total: number = (invoice as Exclude<typeof invoice, false>).total;
  // @ts-expect-error a user has no field password in its answer
  (await get('/api/users/get.{format}', { user_id: 1 })).response!.password;
  // @ts-expect-error no such method
  await get('/api/users/getlsit.{format}', {});
  void total;
}
`;

function run(file: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [file, ...args], { cwd, encoding: 'utf8', timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout + stderr }),
    );
  });
}

describe('a typed client generated from openapi.json (openapi-typescript)', function () {
  this.timeout(120_000);
  let server: TestServer;
  let dir: string;
  before(async () => {
    server = await startTestServer();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tally-client-'));
    fs.writeFileSync(path.join(dir, 'openapi.json'), (await server.request('GET', '/api/openapi.json')).text);
    const generated = await run(GENERATOR, ['openapi.json', '-o', 'tally-api.d.ts'], dir);
    expect(generated.code, generated.output).to.equal(0);
    fs.writeFileSync(path.join(dir, 'client.ts'), CLIENT);
    const options = { strict: true, noEmit: true, target: 'ES2022', module: 'commonjs', lib: ['ES2022'], types: [] };
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, files: ['client.ts', 'tally-api.d.ts'] }));
  });
  after(async () => {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('types every field sent and answered: correct calls compile, wrong ones do not', async () => {
    const checked = await run(TSC, ['-p', 'tsconfig.json'], dir);
    expect(checked.code, checked.output).to.equal(0);
  });

  it('is a check that can fail: a wrong call without its @ts-expect-error is an error', async () => {
    fs.writeFileSync(path.join(dir, 'client.ts'), CLIENT.replace('  // @ts-expect-error client_id is a number\n', ''));
    try {
      const checked = await run(TSC, ['-p', 'tsconfig.json'], dir);
      expect(checked.code).not.to.equal(0);
      expect(checked.output).to.match(/client\.ts\(\d+,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/);
    } finally {
      fs.writeFileSync(path.join(dir, 'client.ts'), CLIENT);
    }
  });
});
