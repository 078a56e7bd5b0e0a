import { config } from '../../core/config';

/** How much an extension may use. Whatever its code does, these hold. */
export interface SandboxLimits {
  /** Memory of the extension's V8 isolate, ArrayBuffers included (TALLY_EXTENSION_HEAP_MB). */
  readonly heapMb: number;
  /** Wall time of one call, CPU included (TALLY_EXTENSION_DEADLINE_MS); beyond it the sandbox is restarted. */
  readonly deadlineMs: number;
  /**
   * On SQLite, the longest one of its statements may run (TALLY_EXTENSION_STATEMENT_MS): better-sqlite3
   * runs it on the host's one thread, so meanwhile no other call is served. PostgreSQL's statements
   * run in the database server, bounded by the call's deadline.
   */
  readonly statementMs: number;
  /** Time to bundle and evaluate the extension (TALLY_EXTENSION_LOAD_MS). */
  readonly loadTimeoutMs: number;
  /** Largest result a call may answer, as JSON text. */
  readonly resultBytes: number;
  /** Most rows one of its selects may answer (row-bound.ts): the answer is read into the host's memory first. */
  readonly rowsPerQuery: number;
  /** Log lines a sandbox may write per second; the rest are dropped and counted. */
  readonly logLinesPerSecond: number;
  /** Requests (queries, method calls, HTTP) one call may make. */
  readonly requestsPerCall: number;
  /** Time and size limits of one outbound HTTP request. */
  readonly httpTimeoutMs: number;
  readonly httpBytes: number;
  /**
   * For testing only (TALLY_GATEWAY_TEST_HOSTS): a declared host (`api.stripe.com`, with its port
   * when declared with one) → the base URL of a server standing in for it (`http://127.0.0.1:4010`).
   */
  readonly testHosts: ReadonlyMap<string, string>;
  /** Companies whose contexts an isolate keeps (one context per company, about 1 MB each; the least recently used is dropped). */
  readonly contexts: number;
}

/** The configured limits, each overridable by the caller (the specs). */
export function sandboxLimits(given: Partial<SandboxLimits> = {}): SandboxLimits {
  const configured = config();
  const heapMb = given.heapMb ?? configured.extensionHeapMb;
  return {
    heapMb,
    deadlineMs: given.deadlineMs ?? configured.extensionDeadlineMs,
    statementMs: given.statementMs ?? configured.extensionStatementMs,
    loadTimeoutMs: given.loadTimeoutMs ?? configured.extensionLoadMs,
    resultBytes: given.resultBytes ?? 1 << 20,
    rowsPerQuery: given.rowsPerQuery ?? 10_000,
    logLinesPerSecond: given.logLinesPerSecond ?? 50,
    requestsPerCall: given.requestsPerCall ?? 1000,
    httpTimeoutMs: given.httpTimeoutMs ?? 10_000,
    httpBytes: given.httpBytes ?? 1 << 20,
    testHosts: given.testHosts ?? parseTestHosts(configured.gatewayTestHosts),
    // A quarter of the memory limit in MB: the contexts take at most about a quarter of the memory.
    contexts: given.contexts ?? Math.max(4, Math.floor(heapMb / 4)),
  };
}

/** `host=http://address:port,...` as a map; an entry that is not that is a start-up error, never ignored. */
export function parseTestHosts(value: string | undefined): ReadonlyMap<string, string> {
  const hosts = new Map<string, string>();
  for (const entry of (value ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const [host, target] = entry.split('=', 2);
    let url: URL | null = null;
    try {
      url = new URL(target ?? '');
    } catch {
      url = null;
    }
    if (!host || !url || !['http:', 'https:'].includes(url.protocol) || (url.pathname !== '/' && url.pathname !== '')) {
      throw new Error(`TALLY_GATEWAY_TEST_HOSTS: "${entry}" is not host=http://address:port.`);
    }
    hosts.set(host.toLowerCase(), url.origin);
  }
  return hosts;
}
