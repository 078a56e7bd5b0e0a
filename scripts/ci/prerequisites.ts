import { spawnSync } from 'node:child_process';
import { Client } from 'pg';
import { findChromium } from '../support/chromium-path';
import { findPostgresBinaries } from '../support/postgres-binaries';

/**
 * What CI needs so that no spec can pass by skipping itself, each found exactly as the specs find
 * it: a PostgreSQL server to run the suite against, initdb and pg_ctl for the fault specs' private
 * server, Chromium for the browser specs and PHP for the PHP consumer specs.
 *
 *   node dist/scripts/ci/prerequisites.js packages   Debian packages that would supply what is missing
 *   node dist/scripts/ci/prerequisites.js check      exits 1, naming each missing one
 */
interface Prerequisite {
  readonly name: string;
  /** The Debian package that supplies it, when one can. */
  readonly debianPackages: readonly string[];
  /** Null when present; else what is missing, for the message. */
  missing(): Promise<string | null>;
}

/** The PostgreSQL server CI runs the suite against a second time. */
const CI_POSTGRES_URL = process.env.TALLY_CI_POSTGRES_URL || 'postgres://postgres@127.0.0.1:5432/test';

const PREREQUISITES: readonly Prerequisite[] = [
  {
    name: 'PostgreSQL server',
    debianPackages: [],
    missing: async () =>
      (await reachable(CI_POSTGRES_URL)) ? null : `PostgreSQL is not reachable at ${CI_POSTGRES_URL} (start it, or set TALLY_CI_POSTGRES_URL): the suite must run on it as well as on SQLite`,
  },
  {
    name: 'initdb and pg_ctl',
    debianPackages: ['postgresql'],
    missing: async () => {
      const found = findPostgresBinaries();
      return typeof found === 'string' ? `${found}: the PostgreSQL fault specs need them for a server of their own` : null;
    },
  },
  {
    name: 'Chromium',
    debianPackages: ['chromium'],
    missing: async () => (findChromium() ? null : 'Chromium is neither at TALLY_CHROMIUM nor on PATH as chromium or chromium-browser: the browser specs need it'),
  },
  {
    name: 'PHP',
    // The PHP scripts use only what php-cli has built in (json, streams): see spec/php/*.php.
    debianPackages: ['php-cli'],
    missing: async () => (spawnSync('php', ['-v'], { stdio: 'ignore' }).status === 0 ? null : "php is not on PATH: the PHP consumer specs read the API with PHP's own unserialize"),
  },
];

async function reachable(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  return client.connect().then(
    () => client.end().then(() => true),
    () => false,
  );
}

async function main(command: string | undefined): Promise<number> {
  const missing: Array<{ prerequisite: Prerequisite; why: string }> = [];
  for (const prerequisite of PREREQUISITES) {
    const why = await prerequisite.missing();
    if (why) missing.push({ prerequisite, why });
  }
  if (command === 'packages') {
    console.log(missing.flatMap((m) => m.prerequisite.debianPackages).join(' '));
    return 0;
  }
  if (command === 'check') {
    for (const m of missing) console.error(`CI cannot run every spec: ${m.why}.`);
    return missing.length ? 1 : 0;
  }
  console.error('Usage: prerequisites.js packages|check');
  return 2;
}

if (require.main === module) {
  main(process.argv[2]).then((code) => process.exit(code));
}
