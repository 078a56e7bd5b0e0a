import http from 'node:http';

/** Waits until `check` holds, polling every 100 ms; throws after `ms`. */
export async function until(check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not met in time');
}

/** The pid of the process answering on a new connection (fetch would reuse one and always reach the same process). */
export function health(base: string): Promise<number | null> {
  return new Promise((resolve) => {
    const req = http.get(`${base}/health`, { agent: false, timeout: 2000 }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve(res.statusCode === 200 ? JSON.parse(text).pid : null));
    });
    req.on('error', () => resolve(null));
    req.on('timeout', () => req.destroy());
  });
}

/** The pids of up to `count` host processes answering at `base`, asked over new connections. */
export async function pids(base: string, count = 2): Promise<Set<number>> {
  const seen = new Set<number>();
  for (let i = 0; i < 30 && seen.size < count; i++) {
    const pid = await health(base);
    if (pid) seen.add(pid);
  }
  return seen;
}
