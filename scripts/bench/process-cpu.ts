import fs from 'node:fs';

const TICK_US = 1e6 / 100; // Linux reports process times in clock ticks of 1/100 s.

/** A process as /proc/<pid>/stat tells it: command name, parent, its own CPU and its ended children's (clock ticks). */
interface ProcessStat {
  readonly name: string;
  readonly ppid: number;
  readonly own: number;
  readonly children: number;
}

/** Every process of the machine now, by pid; undefined where /proc is not available. */
function processStats(): Map<number, ProcessStat> | undefined {
  if (!fs.existsSync('/proc/self/stat')) return undefined;
  const stats = new Map<number, ProcessStat>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name, which is in parentheses and may hold spaces.
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      const name = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
      stats.set(Number(entry), { name, ppid: Number(fields[1]), own: Number(fields[11]) + Number(fields[12]), children: Number(fields[13]) + Number(fields[14]) });
    } catch {
      // The process ended while we looked.
    }
  }
  return stats;
}

/**
 * CPU time (user + system, µs) used so far by a process and every process below it, read from
 * /proc. Throughput on a shared machine moves with its neighbours; the CPU a request costs the
 * server moves far less, so the bench reports both. Undefined where /proc is not available.
 */
export function cpuOfTree(rootPid: number): number | undefined {
  const stats = processStats();
  if (!stats) return undefined;
  let total = 0;
  const pending = [rootPid];
  while (pending.length) {
    const pid = pending.pop()!;
    total += stats.get(pid)?.own ?? 0;
    for (const [child, stat] of stats) if (stat.ppid === pid) pending.push(child);
  }
  return total * TICK_US;
}

/**
 * CPU time (s) used so far by a PostgreSQL server running on this machine: every `postgres`
 * process's own, plus what its postmaster collected from the backends that have ended (their
 * children's time). All of its databases count: on a quiet machine, the bench's. Undefined
 * without /proc or without such a server.
 */
export function localPostgresCpuSeconds(): number | undefined {
  const stats = processStats();
  if (!stats) return undefined;
  let ticks = 0;
  let found = false;
  for (const stat of stats.values()) {
    if (stat.name !== 'postgres') continue;
    found = true;
    // The postmaster (whose parent is not a postgres process) reaped the backends that ended.
    ticks += stat.own + (stats.get(stat.ppid)?.name === 'postgres' ? 0 : stat.children);
  }
  return found ? (ticks * TICK_US) / 1e6 : undefined;
}
