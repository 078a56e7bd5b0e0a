import { Installation } from '../../core/installation';
import { renderInvoicePdf } from '../../core/delivery/invoice-pdf';
import { createScratchDatabase } from '../support/scratch-database';

/** The goal on this machine (issue 25): 50 ten-line PDFs a second on one core. */
const TARGET_PER_CORE = 50;

/**
 * PDF invoices: renders per second and CPU per render of a 10-line and a 500-line invoice (taxed,
 * with Greek and Cyrillic lines), in this one process, after BENCH_PDF_WARMUP unmeasured renders
 * (default 20: the first renders compile and fill fontkit's caches). BENCH_PDF_RENDERS (default
 * 200 for 10 lines, a tenth of it for 500) and BENCH_ROUNDS (default 3) tune it. Renders run one
 * after another, so renders per CPU-second is what one core gives.
 */
export async function measureInvoicePdf(): Promise<void> {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const renders = Number(process.env.BENCH_PDF_RENDERS ?? 200);
  const warmup = Number(process.env.BENCH_PDF_WARMUP ?? 20);
  const database = await createScratchDatabase(undefined, 'tally_bench_pdf');
  const installation = await Installation.open({ databaseUrl: database.url, cacheTtlMs: 1000 });
  try {
    const as = { companyId: 1, user: 'bench' };
    await installation.call('taxes', 'add', { vars: { name: 'VAT', rate: '20' } }, as);
    const clientId = (await installation.call('clients', 'add', { vars: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', address1: '1 Main St', city: 'London' } }, as)) as number;
    for (const lineCount of [10, 500]) {
      const lines = Array.from({ length: lineCount }, (_, i) => ({
        description: i % 3 === 0 ? `Ελληνικά ${i}` : i % 3 === 1 ? `Кириллица ${i}` : `Consulting hours, item ${i}`,
        amount: '12.50',
        qty: 3,
        tax: 'true',
      }));
      const vars = { client_id: clientId, date_billed: '2026-01-01 00:00:00 UTC', date_due: '2026-01-31 00:00:00 UTC', currency: 'USD', lines };
      const invoiceId = (await installation.call('invoices', 'add', { vars }, as)) as number;
      const count = lineCount === 10 ? renders : Math.max(1, Math.round(renders / 10));
      for (let i = 0; i < warmup; i++) await renderInvoicePdf(installation.db, 1, invoiceId);
      const perSecond: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const started = process.hrtime.bigint();
        const cpu = process.cpuUsage();
        let bytes = 0;
        for (let i = 0; i < count; i++) bytes = (await renderInvoicePdf(installation.db, 1, invoiceId)).length;
        const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
        const used = process.cpuUsage(cpu);
        const cpuMs = (used.user + used.system) / 1000 / count;
        perSecond.push(1000 / cpuMs);
        console.log(
          `pdf, ${lineCount} lines: ${count} renders at ${((count / wallMs) * 1000).toFixed(1)}/s wall, ${cpuMs.toFixed(1)} ms CPU each (${(1000 / cpuMs).toFixed(1)}/s per core), ${(bytes / 1024).toFixed(0)} KB`,
        );
      }
      const median = [...perSecond].sort((a, b) => a - b)[Math.floor(perSecond.length / 2)];
      const verdict = lineCount === 10 ? (median >= TARGET_PER_CORE ? ` (goal ${TARGET_PER_CORE}/s per core met)` : ` (UNDER the goal of ${TARGET_PER_CORE}/s per core)`) : '';
      console.log(`pdf, ${lineCount} lines: median ${median.toFixed(1)} renders per CPU-second${verdict}`);
    }
  } finally {
    await installation.close();
    await database.drop();
  }
}
