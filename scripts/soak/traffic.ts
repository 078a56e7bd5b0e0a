import http from 'node:http';

export interface Tally {
  readonly base: string;
  readonly headers: Record<string, string>;
}

/** Requests served, by status (`network` when no answer came), and every latency in ms. */
export class Stats {
  readonly byStatus = new Map<string, number>();
  readonly latencies: number[] = [];

  record(status: string, ms: number): void {
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
    this.latencies.push(ms);
  }

  percentile(p: number): number {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0;
  }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One API call, timed into `stats`; resolves with the status and parsed body (never rejects). */
export function call(tally: Tally, stats: Stats, verb: string, path: string, form?: string): Promise<{ status: number; body: any }> {
  const started = process.hrtime.bigint();
  return new Promise((resolve) => {
    const done = (status: number, body: any) => {
      stats.record(status ? String(status) : 'network', Number(process.hrtime.bigint() - started) / 1e6);
      resolve({ status, body });
    };
    const headers: Record<string, string | number> = { ...tally.headers };
    if (form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers['content-length'] = Buffer.byteLength(form);
    }
    const req = http.request(`${tally.base}${path}`, { method: verb, headers, agent, timeout: 10_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        let body: unknown = null;
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
        done(res.statusCode ?? 0, body);
      });
      res.on('error', () => done(0, null));
    });
    req.on('error', () => done(0, null));
    req.on('timeout', () => req.destroy());
    req.end(form);
  });
}

/** The pid of the host process answering a new connection. */
export function answeringPid(base: string): Promise<number | null> {
  return new Promise((resolve) => {
    const req = http.get(`${base}/health`, { agent: false, timeout: 2000 }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve(res.statusCode === 200 ? JSON.parse(text).pid : null));
    });
    req.on('error', () => resolve(null));
    req.on('timeout', () => req.destroy());
  });
}
