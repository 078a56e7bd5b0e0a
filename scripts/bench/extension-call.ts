import http from 'node:http';

/**
 * The sandbox may add at most twice what an extension call added before it was a security
 * boundary (149 µs at p50, measured when the sandbox was specified): 298 µs.
 */
export const SANDBOX_TARGET_US = 2 * 149;

export interface ExtensionCallOptions {
  /** The running Tally, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  user: string;
  key: string;
  /** Measured calls of each kind (default 2000), after `warmup` unmeasured ones (default 200). */
  samples?: number;
  warmup?: number;
}

export interface ExtensionCallFigures {
  /** POST diagnostics.sandbox/echo: a call into the extension's worker and back. */
  readonly extensionP50Us: number;
  readonly extensionP99Us: number;
  /** POST encryption/systemHash: the same-shaped call on a core model. */
  readonly coreP50Us: number;
  readonly coreP99Us: number;
  /** What the sandbox adds at p50: at most SANDBOX_TARGET_US. */
  readonly addedP50Us: number;
  readonly samples: number;
}

/**
 * The cost of a call into an extension next to the same call on a core model, from one client
 * over one keep-alive connection, so latency is measured without queueing. The two calls
 * alternate, so the machine's noise falls on both alike. Installs the shipped `diagnostics`
 * plugin for the credential's company when it is not installed yet.
 */
export async function measureExtensionCall(options: ExtensionCallOptions): Promise<ExtensionCallFigures> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const post = (path: string, body: string) => request(agent, options, path, body);
  try {
    await ensureDiagnostics(post);
    const extension = () => post('/api/diagnostics.sandbox/echo.json', 'value=bench');
    const core = () => post('/api/encryption/systemHash.json', 'value=bench');
    for (let i = 0; i < (options.warmup ?? 200); i++) {
      expectOk(await extension());
      expectOk(await core());
    }
    const times = { extension: [] as number[], core: [] as number[] };
    for (let i = 0; i < (options.samples ?? 2000); i++) {
      times.extension.push(await timed(extension));
      times.core.push(await timed(core));
    }
    const figure = (list: number[], p: number) => Math.round(percentile(list, p));
    return {
      extensionP50Us: figure(times.extension, 50),
      extensionP99Us: figure(times.extension, 99),
      coreP50Us: figure(times.core, 50),
      coreP99Us: figure(times.core, 99),
      addedP50Us: figure(times.extension, 50) - figure(times.core, 50),
      samples: times.core.length,
    };
  } finally {
    agent.destroy();
  }
}

type Post = (path: string, body: string) => Promise<{ status: number; body: string }>;

async function ensureDiagnostics(post: Post): Promise<void> {
  const all = JSON.parse((await post('/api/plugin_manager/getAll.json', '')).body).response as Array<{ dir: string; id: number | null; status: string; error: string | null }>;
  const diagnostics = all?.find((e) => e.dir === 'diagnostics');
  if (!diagnostics) throw new Error("The diagnostics plugin is not in the server's extensions directory.");
  if (diagnostics.status === 'failed') throw new Error(`The diagnostics plugin failed to load: ${diagnostics.error}`);
  if (diagnostics.status === 'available') expectOk(await post('/api/plugin_manager/add.json', 'vars[dir]=diagnostics'));
  if (diagnostics.status === 'disabled') expectOk(await post('/api/plugin_manager/enable.json', `plugin_id=${diagnostics.id}`));
}

async function timed(call: () => Promise<{ status: number; body: string }>): Promise<number> {
  const started = process.hrtime.bigint();
  expectOk(await call());
  return Number(process.hrtime.bigint() - started) / 1000;
}

function expectOk(answer: { status: number; body: string }): void {
  if (answer.status !== 200) throw new Error(`Expected 200, got ${answer.status}: ${answer.body}`);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function request(agent: http.Agent, options: ExtensionCallOptions, path: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL(path, options.baseUrl),
      {
        method: 'POST',
        agent,
        headers: { 'SERVICE-API-USER': options.user, 'SERVICE-API-KEY': options.key, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
