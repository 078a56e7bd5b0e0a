import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The PostgreSQL server programs a private server needs. */
export interface PostgresBinaries {
  readonly initdb: string;
  readonly pgCtl: string;
}

/** Where Debian and Ubuntu install each PostgreSQL version's server programs (not on PATH). */
const DEBIAN_ROOT = '/usr/lib/postgresql';

/**
 * initdb and pg_ctl, found the one way the fault specs, the soak and CI's check all use: on PATH
 * first, else in the newest /usr/lib/postgresql/<version>/bin holding both (Debian's postgresql
 * package puts them there and links only the client programs onto PATH). Answers why not when
 * neither place has them.
 */
export function findPostgresBinaries(): PostgresBinaries | string {
  if (runs('initdb') && runs('pg_ctl')) return { initdb: 'initdb', pgCtl: 'pg_ctl' };
  for (const bin of debianBinFolders()) {
    const initdb = path.join(bin, 'initdb');
    const pgCtl = path.join(bin, 'pg_ctl');
    if (runs(initdb) && runs(pgCtl)) return { initdb, pgCtl };
  }
  return `initdb and pg_ctl (PostgreSQL server binaries) are neither on PATH nor in ${DEBIAN_ROOT}/<version>/bin`;
}

/** /usr/lib/postgresql/<version>/bin, newest version first. */
function debianBinFolders(): string[] {
  const versions = fs.existsSync(DEBIAN_ROOT) ? fs.readdirSync(DEBIAN_ROOT).filter((v) => /^\d+(\.\d+)?$/.test(v)) : [];
  return versions.sort((a, b) => Number(b) - Number(a)).map((v) => path.join(DEBIAN_ROOT, v, 'bin'));
}

function runs(program: string): boolean {
  return spawnSync(program, ['--version'], { stdio: 'ignore' }).status === 0;
}
