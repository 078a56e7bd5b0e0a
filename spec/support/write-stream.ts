import { Acknowledged } from '../../scripts/soak/checks';

export interface Target {
  readonly base: string;
  readonly headers: Record<string, string>;
}

/**
 * A stream of invoice and payment writes spread over several host processes, recording what was
 * acknowledged (200) and anything a fault must never cause: a 500, a 503 without Retry-After, no
 * answer at all (a process that died or a call that hung past `deadlineMs`).
 */
export class WriteStream {
  readonly acknowledged: Acknowledged = { invoices: [], payments: [] };
  readonly statuses = new Map<string, number>();
  readonly defects: string[] = [];
  slowestMs = 0;
  private running = false;
  private workers: Promise<void>[] = [];

  constructor(
    private readonly targets: readonly Target[],
    private readonly clients: readonly number[],
    private readonly deadlineMs: number,
  ) {}

  start(concurrency: number): void {
    this.running = true;
    this.workers = Array.from({ length: concurrency }, (_, i) => this.loop(this.targets[i % this.targets.length]));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
  }

  /** Acknowledged writes since `mark` (a count of both kinds taken earlier). */
  count(): number {
    return this.acknowledged.invoices.length + this.acknowledged.payments.length;
  }

  private async loop(target: Target): Promise<void> {
    while (this.running) {
      const invoices = this.acknowledged.invoices;
      if (invoices.length && Math.random() < 0.4) await this.pay(target, invoices[Math.floor(Math.random() * invoices.length)]);
      else await this.invoice(target);
    }
  }

  private async invoice(target: Target): Promise<void> {
    const client = this.clients[Math.floor(Math.random() * this.clients.length)];
    const lines = [0, 1].map((i) => `vars[lines][${i}][description]=Item+${i}&vars[lines][${i}][amount]=${(10 + Math.random() * 90).toFixed(2)}&vars[lines][${i}][qty]=${i + 1}`);
    const form = `vars[client_id]=${client}&vars[date_billed]=2026-11-01T00:00:00Z&vars[date_due]=2026-12-01T00:00:00Z&vars[currency]=USD&${lines.join('&')}`;
    const answer = await this.post(target, '/api/invoices/add.json', form);
    if (answer?.status === 200) this.acknowledged.invoices.push(answer.body.response);
  }

  private async pay(target: Target, invoice: number): Promise<void> {
    const found = await this.post(target, `/api/invoices/get.json?invoice_id=${invoice}`);
    if (found?.status !== 200 || !found.body.response) return;
    const form = `vars[client_id]=${found.body.response.client_id}&vars[amount]=${(1 + Math.random() * 4).toFixed(2)}&vars[currency]=USD&vars[gateway]=faults&vars[invoices][0][invoice_id]=${invoice}`;
    const answer = await this.post(target, '/api/transactions/add.json', form);
    if (answer?.status === 200) this.acknowledged.payments.push(answer.body.response);
  }

  /** POST with a form, or GET without one. */
  private async post(target: Target, path: string, form?: string): Promise<{ status: number; body: any } | null> {
    const started = Date.now();
    try {
      const headers: Record<string, string> = { ...target.headers };
      if (form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
      const res = await fetch(target.base + path, { method: form === undefined ? 'GET' : 'POST', headers, body: form, signal: AbortSignal.timeout(this.deadlineMs) });
      const text = await res.text();
      this.slowestMs = Math.max(this.slowestMs, Date.now() - started);
      this.statuses.set(String(res.status), (this.statuses.get(String(res.status)) ?? 0) + 1);
      if (res.status === 503 && !res.headers.get('retry-after')) this.defects.push(`${path}: 503 without Retry-After`);
      if (res.status !== 200 && res.status !== 503) this.defects.push(`${path}: ${res.status} ${text.slice(0, 200)}`);
      return { status: res.status, body: JSON.parse(text) };
    } catch (error) {
      this.statuses.set('no answer', (this.statuses.get('no answer') ?? 0) + 1);
      this.defects.push(`${path}: no answer after ${Date.now() - started} ms (${(error as Error).message})`);
      return null;
    }
  }
}
