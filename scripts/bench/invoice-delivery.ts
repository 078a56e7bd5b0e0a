import autocannon from 'autocannon';
import { createFixture } from './fixture';
import { freePort, startTally, withProcess } from './processes';
import { Sink } from './smtp-sink';

/** The goal on this machine (issue 25): 10,000 invoices delivered with their PDFs in under 5 minutes. */
const GOAL_INVOICES = 10_000;
const GOAL_SECONDS = 300;

/** The p-th percentile (0..100) of sorted values. */
function percentile(sorted: readonly number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : 0;
}

/**
 * Invoice delivery end to end, on PostgreSQL with 2 Tally processes (`serve`, TALLY_WORKERS=2):
 * BENCH_DELIVERIES invoices (default 500; the goal is 10,000) added over the API with
 * `vars[delivery][]=email`, BENCH_DELIVERY_CONNECTIONS (8) at a time. Each add renders the invoice's
 * PDF and writes its message to the mail outbox; the processes' mail workers send them to a local
 * SMTP server. Meanwhile users/get.json is loaded on 4 connections: its p99 is how responsive the
 * API stays. Reports the time from the first add to the last message accepted by the server, the
 * adds' own p50/p99, and what that rate gives for 10,000; then the same adds without a delivery,
 * which is what rendering the PDF in invoices/add's transaction costs the call.
 */
export async function measureInvoiceDelivery(postgresUrl: string | null): Promise<void> {
  if (!postgresUrl) {
    console.log('invoice delivery: needs PostgreSQL (BENCH_POSTGRES_URL); skipped.');
    return;
  }
  const count = Number(process.env.BENCH_DELIVERIES ?? 500);
  const connections = Number(process.env.BENCH_DELIVERY_CONNECTIONS ?? 8);
  const fixture = await createFixture(postgresUrl);
  const sink = await Sink.start();
  const port = await freePort();
  try {
    await withProcess(startTally(fixture.databaseUrl, port, { TALLY_WORKERS: '2' }), port, async () => {
      const base = `http://127.0.0.1:${port}`;
      const headers = { 'SERVICE-API-USER': fixture.user, 'SERVICE-API-KEY': fixture.key, 'content-type': 'application/x-www-form-urlencoded' };
      const call = async (verb: string, path: string, body: string) => {
        const answer = await fetch(`${base}/api/${path}.json`, { method: verb, headers, body });
        if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${await answer.text()}`);
      };
      await call('PUT', 'mail_settings/set', `vars[host]=127.0.0.1&vars[port]=${sink.port}&vars[tls]=none&vars[from_address]=billing%40example.com`);
      const lines = Array.from({ length: 10 }, (_, i) => `vars[lines][${i}][description]=Hosting+item+${i}&vars[lines][${i}][amount]=12.50&vars[lines][${i}][qty]=2`).join('&');
      const invoice = `vars[client_id]=${fixture.clientId}&vars[date_billed]=2026-11-01T00:00:00Z&vars[date_due]=2026-12-01T00:00:00Z&vars[currency]=USD&${lines}&vars[delivery][]=email`;

      /** Adds `body` `count` times, `connections` at a time: each add's milliseconds, sorted. */
      const addAll = async (body: string): Promise<number[]> => {
        const addMs: number[] = [];
        let next = 0;
        const lane = async () => {
          while (next < count) {
            next++;
            const t = performance.now();
            await call('POST', 'invoices/add', body);
            addMs.push(performance.now() - t);
          }
        };
        await Promise.all(Array.from({ length: connections }, lane));
        return addMs.sort((a, b) => a - b);
      };

      // users/get.json on 4 connections while `work` runs: its p99 is how responsive the API stays.
      const whileReading = async <T>(work: () => Promise<T>): Promise<[T, autocannon.Result]> => {
        const reads = autocannon({ url: `${base}/api/users/get.json?user_id=${fixture.userId}`, headers, connections: 4, duration: 3600 }) as unknown as autocannon.Instance &
          PromiseLike<autocannon.Result>;
        const result = await work();
        reads.stop();
        return [result, await reads];
      };
      // First the same adds without a delivery (no PDF, no message): what the PDF and the message cost each add.
      const [plain, plainRead] = await whileReading(async () => {
        const t = performance.now();
        const ms = await addAll(invoice.replace('&vars[delivery][]=email', ''));
        return { ms, seconds: (performance.now() - t) / 1000 };
      });
      const [delivered, read] = await whileReading(async () => {
        const started = performance.now();
        const sorted = await addAll(invoice);
        const addedSeconds = (performance.now() - started) / 1000;
        while (sink.count < count) await new Promise((resolve) => setTimeout(resolve, 50));
        return { sorted, addedSeconds, seconds: (performance.now() - started) / 1000 };
      });
      const { sorted, addedSeconds, seconds } = delivered;
      const projected = (GOAL_INVOICES / count) * seconds;
      console.log(
        `invoice delivery, PostgreSQL, 2 processes: ${count} invoices (10 lines, PDF attached) added in ${addedSeconds.toFixed(1)} s (invoices/add p50 ${percentile(sorted, 50).toFixed(0)} ms, p99 ${percentile(sorted, 99).toFixed(0)} ms), all delivered in ${seconds.toFixed(1)} s (${(count / seconds).toFixed(1)}/s)`,
      );
      console.log(
        `invoice delivery: users/get.json meanwhile p50 ${read.latency.p50} ms, p99 ${read.latency.p99} ms (${read.non2xx} non-2xx); ${GOAL_INVOICES} at this rate: ${projected.toFixed(0)} s (goal ${GOAL_SECONDS} s${projected <= GOAL_SECONDS ? ', met' : ', NOT met'})`,
      );
      if (sink.count !== count) throw new Error(`invoice delivery: WRONG: ${sink.count} received of ${count}`);
      console.log(
        `invoice delivery: the same ${count} adds without delivery[]=email took ${plain.seconds.toFixed(1)} s (p50 ${percentile(plain.ms, 50).toFixed(0)} ms, p99 ${percentile(plain.ms, 99).toFixed(0)} ms; users/get.json p99 ${plainRead.latency.p99} ms): the PDF and the message add ${((addedSeconds / plain.seconds - 1) * 100).toFixed(0)}% to the adds`,
      );
    });
  } finally {
    await sink.close();
    await fixture.cleanup();
  }
}
