import { callable, ExtensionContext, shape, string } from '../../../host/extensions/kit';

const INFO = shape.record({
  uptime_s: shape.int({ description: "Seconds since this company's sandbox context started." }),
  has_process: shape.bool(),
  has_require: shape.bool(),
  company_id: shape.int(),
});

/** Evaluated once per company context, so this is when the current context started. */
const STARTED = Date.now();

/** `diagnostics.sandbox`: what an operator asks when extension calls seem slow or restart. */
export class Sandbox {
  constructor(private readonly ctx: ExtensionContext) {}

  @callable({ verb: 'POST', params: [string('value')], returns: shape.string(), description: 'Answers value unchanged: the cost of a call into a worker and back, nothing else.' })
  echo(value: string) {
    return value;
  }

  @callable({ verb: 'GET', returns: INFO, description: "How long this company's sandbox context has been up (s), and what a sandbox offers: no Node.js, no process." })
  info() {
    const scope = globalThis as Record<string, unknown>;
    return {
      uptime_s: Math.round((Date.now() - STARTED) / 1000),
      has_process: typeof scope.process !== 'undefined',
      has_require: typeof scope.require !== 'undefined',
      company_id: this.ctx.companyId,
    };
  }
}

export const models = { sandbox: Sandbox };
