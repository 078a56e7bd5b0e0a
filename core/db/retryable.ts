/**
 * Failures a transaction may simply be run again after: PostgreSQL's serialization failure and
 * deadlock (the other party won; nothing of ours was written). SQLite's busy file is waited out
 * by its driver (fair-sqlite-dialect.ts) and answers 503 past its bound.
 */
export function isRetryable(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === '40001' || code === '40P01';
}

/** Runs `work`, again after a short random pause when it fails in a retryable way. */
export async function withRetries<T>(work: () => Promise<T>, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isRetryable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}
