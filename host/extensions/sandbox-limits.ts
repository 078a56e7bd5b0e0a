/** How much an extension may use: each worker's heap, each call's time, and the time to load. */
export interface SandboxLimits {
  readonly heapMb: number;
  readonly deadlineMs: number;
  readonly loadTimeoutMs: number;
}

/** TALLY_EXTENSION_HEAP_MB (default 128), TALLY_EXTENSION_DEADLINE_MS (default 10000), TALLY_EXTENSION_LOAD_MS (default 10000). */
export function sandboxLimits(given: Partial<SandboxLimits> = {}, env: NodeJS.ProcessEnv = process.env): SandboxLimits {
  return {
    heapMb: given.heapMb ?? positive(env.TALLY_EXTENSION_HEAP_MB, 'TALLY_EXTENSION_HEAP_MB', 128),
    deadlineMs: given.deadlineMs ?? positive(env.TALLY_EXTENSION_DEADLINE_MS, 'TALLY_EXTENSION_DEADLINE_MS', 10_000),
    loadTimeoutMs: given.loadTimeoutMs ?? positive(env.TALLY_EXTENSION_LOAD_MS, 'TALLY_EXTENSION_LOAD_MS', 10_000),
  };
}

function positive(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, not "${value}".`);
  return n;
}
