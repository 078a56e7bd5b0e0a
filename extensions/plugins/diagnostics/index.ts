import { getHeapStatistics } from 'node:v8';
import { callable, ExtensionContext, string } from '../../../host/extensions/kit';

/** Loaded once per worker, so this is when the current worker started. */
const STARTED = Date.now();

/** `diagnostics.sandbox`: what an operator asks when extension calls seem slow or restart. */
export class Sandbox {
  constructor(private readonly ctx: ExtensionContext) {}

  @callable({ verb: 'POST', params: [string('value')], description: 'Answers value unchanged: the cost of a call into a worker and back, nothing else.' })
  echo(value: string) {
    return value;
  }

  @callable({ verb: 'GET', description: "The worker's heap use and limit (MB), its uptime (s) and Node.js version." })
  info() {
    const heap = getHeapStatistics();
    const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
    return { heap_used_mb: mb(heap.used_heap_size), heap_limit_mb: mb(heap.heap_size_limit), uptime_s: Math.round((Date.now() - STARTED) / 1000), node: process.version, company_id: this.ctx.companyId };
  }
}

export const models = { sandbox: Sandbox };
