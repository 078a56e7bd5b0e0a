import path from 'node:path';
import { Installation } from '../../core/installation';
import { databaseLine } from './open-installation';

export interface BannerOptions {
  /** DATABASE_URL as this server read it. */
  readonly databaseUrl: string;
  /** The default DATABASE_URL (data/tally.sqlite under the working directory). */
  readonly defaultDatabaseUrl: string;
}

/**
 * What `serve` prints at start: where the API is, which database, and how to get credentials. The
 * commands it prints run as written in another terminal in the same directory: when this server
 * uses another database than the default, they carry its DATABASE_URL, or a command would create
 * the key in the default SQLite file and the server would answer 401.
 */
export async function banner(installation: Installation, url: string, workers: number, options: BannerOptions): Promise<string> {
  const keys = await installation.db.selectFrom('api_keys').select('id').limit(1).execute();
  const database = sameDatabase(options.databaseUrl, options.defaultDatabaseUrl) ? [] : [`  export DATABASE_URL=${shellWord(shownUrl(options.databaseUrl))}`];
  const passwordHidden = /\/\/[^@/:]*:[^@/]*@/.test(options.databaseUrl);
  return [
    `Tally is serving the API at ${url}/api/<model>/<method>.<format>${workers > 1 ? ` with ${workers} host processes` : ''}`,
    databaseLine(installation),
    keys.length
      ? 'API credentials exist (list them with `npx tally api-keys list`). To create one, in another terminal in this directory:'
      : 'No API credentials yet. In another terminal, in this directory:',
    ...database,
    ...(passwordHidden ? ['  (put the database password back in DATABASE_URL: it is not printed here)'] : []),
    `  export TALLY_URL=${url}`,
    '  eval "$(npx tally api-keys create --company 1 --shell)"   # sets TALLY_USER and TALLY_KEY; the key is shown once',
    '  curl -u "$TALLY_USER:$TALLY_KEY" "$TALLY_URL/api/users/getList.json"',
    `Administration: ${url}/admin (create the first staff member with \`npx tally staff create --username admin --email you@example.com --password-stdin\`${database.length ? ', with the same DATABASE_URL' : ''}).`,
    `API reference: ${url}/api/reference.html (with API credentials).`,
    '',
  ].join('\n');
}

export function shownHost(host: string | undefined): string {
  return !host || host === '0.0.0.0' || host === '::' ? 'localhost' : host;
}

function sameDatabase(url: string, defaultUrl: string): boolean {
  return !/^postgres(ql)?:/.test(url) && path.resolve(url.replace(/^sqlite:/, '')) === path.resolve(defaultUrl);
}

/** The URL with its password (if any) left out: the banner may end up in a log. */
function shownUrl(url: string): string {
  return url.replace(/(\/\/[^@/:]*):[^@/]*@/, '$1:****@');
}

function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}
