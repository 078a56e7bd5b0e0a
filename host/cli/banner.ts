import { Installation } from '../../core/installation';

/** What `serve` prints at start: where the API is, which database, and how to get credentials. */
export async function banner(installation: Installation, url: string, workers: number): Promise<string> {
  const keys = await installation.db.selectFrom('api_keys').select('id').limit(1).execute();
  return [
    `Tally is serving the API at ${url}/api/<model>/<method>.<format>${workers > 1 ? ` with ${workers} host processes` : ''}`,
    `Database: ${installation.connection.dialect} (${installation.connection.where})`,
    keys.length
      ? 'API credentials: list them with `npx tally api-keys list`, create more with `npx tally api-keys create --company 1`.'
      : 'No API credentials yet. Create one with `npx tally api-keys create --company 1` (the key is shown once), then:',
    `  curl -H "SERVICE-API-USER: <user>" -H "SERVICE-API-KEY: <key>" "${url}/api/users/getList.json"`,
    `Administration: ${url}/admin (create the first staff member with \`npx tally staff create --username admin --email you@example.com --password-stdin\`).`,
    `API reference: ${url}/api/reference.html (with API credentials).`,
    '',
  ].join('\n');
}

export function shownHost(host: string | undefined): string {
  return !host || host === '0.0.0.0' || host === '::' ? 'localhost' : host;
}
