import { config } from '../../core/config';

/** How much an extension may use: each worker's heap, each call's time, and the time to load. */
export interface SandboxLimits {
  readonly heapMb: number;
  readonly deadlineMs: number;
  readonly loadTimeoutMs: number;
}

/** The configured limits (TALLY_EXTENSION_HEAP_MB, _DEADLINE_MS, _LOAD_MS), each overridable by the caller. */
export function sandboxLimits(given: Partial<SandboxLimits> = {}): SandboxLimits {
  const configured = config();
  return {
    heapMb: given.heapMb ?? configured.extensionHeapMb,
    deadlineMs: given.deadlineMs ?? configured.extensionDeadlineMs,
    loadTimeoutMs: given.loadTimeoutMs ?? configured.extensionLoadMs,
  };
}
