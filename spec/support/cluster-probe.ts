import { answeringPid } from '../../scripts/soak/traffic';

/** Waits until `check` holds, polling every 100 ms; throws after `ms`. */
export async function until(check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not met in time');
}

/** The pids of up to `count` host processes answering at `base`, each asked over a new connection. */
export async function pids(base: string, count = 2): Promise<Set<number>> {
  const seen = new Set<number>();
  for (let i = 0; i < 30 && seen.size < count; i++) {
    const pid = await answeringPid(base);
    if (pid) seen.add(pid);
  }
  return seen;
}
