import { soakPayments } from './payments-soak';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 30);
const CONCURRENCY = Number(process.env.SOAK_CONCURRENCY ?? 8);

/** `npm run soak` (after the mixed soak) and `npm run soak:payments`: the payments soak, its report, and exit 1 when a check fails. */
async function main(): Promise<number> {
  console.log(`Payments soak: ${SECONDS} s, ${CONCURRENCY} payments at once, Stripe Checkout and PayPal notifications, 2 host processes on a private PostgreSQL`);
  const report = await soakPayments({ seconds: SECONDS, concurrency: CONCURRENCY, log: (line) => console.log(line) });
  if (typeof report === 'string') {
    console.log(`Payments soak not run: ${report} (it needs initdb and pg_ctl for a PostgreSQL of its own to restart).`);
    return 1;
  }
  const byGateway = (g: string) => report.payments.filter((p) => p.gateway === g).length;
  console.log(`Genuine payments: ${report.payments.length} (${byGateway('stripe_checkout')} Stripe Checkout, ${byGateway('paypal_checkout')} PayPal)`);
  console.log(`Notification deliveries by answer: ${[...report.deliveries].map(([status, n]) => `${status || 'no answer'}: ${n}`).join(', ')}`);
  for (const fault of report.faults) console.log(`Fault: ${fault}`);
  console.log(`API writes retried under a new Idempotency-Key (the first left running by the killed process): ${report.abandonedKeys}`);
  console.log(`Notifications kept as failed or unfinished and processed again (gateway_notifications/reprocess): ${report.reprocessed}`);
  if (report.failures.length) {
    console.log(`\nCHECKS FAILED (${report.failures.length}):`);
    for (const failure of report.failures.slice(0, 30)) console.log(`  - ${failure}`);
    return 1;
  }
  console.log('\nChecks passed: every genuine payment is one approved transaction paying its invoice in full, nothing else was recorded, every invoice balances.');
  return 0;
}

main().then(
  (code) => (process.exitCode = code),
  (error) => {
    console.error(error);
    process.exitCode = 1;
  },
);
