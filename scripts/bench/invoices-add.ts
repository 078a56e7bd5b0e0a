import 'reflect-metadata';
import qs from 'qs';
import { createFixture } from './fixture';
import { load } from './load';
import { freePort, startTally, withProcess } from './processes';

export interface InvoicesAddFigures {
  readonly requests_per_sec: number;
  readonly p50_ms: number;
  readonly p99_ms: number;
}

export interface InvoicesAddOptions {
  /** Where Tally serves, e.g. `http://127.0.0.1:8080` (the API is under `/api`). */
  readonly baseUrl: string;
  readonly user: string;
  readonly key: string;
  readonly seconds?: number;
  readonly connections?: number;
}

const LINES_PER_INVOICE = 10;

/**
 * Throughput of `POST /api/invoices/add.json` with 10-line invoices (taxable lines, a tax in force,
 * two delivery methods): the validation, totalling, numbering and five inserts of a real add.
 * Creates the client and tax it bills through the API first. Throws when any request fails, so a
 * refused invoice never passes for a fast one.
 */
export async function benchInvoicesAdd(options: InvoicesAddOptions): Promise<InvoicesAddFigures> {
  const headers = { 'SERVICE-API-USER': options.user, 'SERVICE-API-KEY': options.key, 'content-type': 'application/x-www-form-urlencoded' };
  const post = async (path: string, params: object) => {
    const res = await fetch(`${options.baseUrl}/api/${path}.json`, { method: 'POST', headers, body: qs.stringify(params) });
    const body = (await res.json()) as { response?: unknown };
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(body)}`);
    return body.response;
  };
  const clientId = await post('clients/add', { vars: { first_name: 'Bench', last_name: 'Client', email: 'bench@example.com', country: 'US', state: 'NY' } });
  await post('taxes/add', { vars: { name: 'Bench sales tax', rate: '8.875', country: 'US', state: 'NY' } });
  const body = qs.stringify({ vars: invoiceVars(Number(clientId)) });
  const result = await load({ url: `${options.baseUrl}/api/invoices/add.json`, method: 'POST', headers, body, seconds: options.seconds, connections: options.connections });
  if (result.non2xx || result.errors) throw new Error(`invoices/add: ${result.non2xx} non-2xx answers and ${result.errors} errors during the run`);
  return { requests_per_sec: result.requestsPerSec, p50_ms: result.p50Ms, p99_ms: result.p99Ms };
}

export function invoiceVars(clientId: number) {
  return {
    client_id: clientId,
    date_billed: '2024-03-01 12:00:00 UTC',
    date_due: '2024-03-31 12:00:00 UTC',
    currency: 'USD',
    delivery: ['email', 'paper'],
    lines: Array.from({ length: LINES_PER_INVOICE }, (_, i) => ({ description: `Service ${i + 1}`, amount: `${(i + 1) * 12}.34`, qty: (i % 3) + 1, tax: i % 2 ? 'true' : 'false' })),
  };
}

/**
 * Standalone: `node dist/scripts/bench/invoices-add.js [BASE_URL API_USER API_KEY]`. Without
 * arguments it starts Tally on a scratch database (SQLite, or PostgreSQL when BENCH_POSTGRES_URL
 * is set) and measures users/get.json in the same run as a baseline for the ratio.
 */
async function main(): Promise<void> {
  const [baseUrl, user, key] = process.argv.slice(2);
  if (baseUrl) {
    if (!user || !key) throw new Error('Usage: invoices-add.js [BASE_URL API_USER API_KEY]');
    console.log(JSON.stringify(await benchInvoicesAdd({ baseUrl, user, key })));
    return;
  }
  const fixture = await createFixture(process.env.BENCH_POSTGRES_URL);
  try {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    await withProcess(startTally(fixture.databaseUrl, port), port, async () => {
      const headers = { 'SERVICE-API-USER': fixture.user, 'SERVICE-API-KEY': fixture.key };
      const baseline = await load({ url: `${base}/api/users/get.json?user_id=${fixture.userId}`, headers });
      const invoices = await benchInvoicesAdd({ baseUrl: base, user: fixture.user, key: fixture.key });
      console.log(`users/get.json (baseline)   ${baseline.requestsPerSec.toFixed(0)} req/s   p50 ${baseline.p50Ms} ms   p99 ${baseline.p99Ms} ms`);
      console.log(`invoices/add.json, 10 lines ${invoices.requests_per_sec.toFixed(0)} req/s   p50 ${invoices.p50_ms} ms   p99 ${invoices.p99_ms} ms`);
      console.log(`ratio to baseline           ${(invoices.requests_per_sec / baseline.requestsPerSec).toFixed(2)}`);
    });
  } finally {
    await fixture.cleanup();
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
