import { config } from '../../core/config';

/** The credentials the CLI form calls with, and a line saying where they came from. */
export interface ApiFormCredentials {
  readonly credentials: { user: string; key: string } | null;
  readonly source: string;
}

/**
 * The API user and key of the CLI form: each from its option (-u, -k), else from TALLY_USER and
 * TALLY_KEY, the variables the README's quick start exports (`tally api-keys create --shell`).
 * The line names the source and never the key, so a 401 says which credential was tried.
 */
export function apiFormCredentials(options: { user?: string; key?: string }, environment = { user: config().apiUser, key: config().apiKey }): ApiFormCredentials {
  const user = options.user ?? environment.user;
  const key = options.key ?? environment.key;
  if (user === undefined && key === undefined) {
    return { credentials: null, source: 'Credentials: none given (use -u and -k, or export TALLY_USER and TALLY_KEY).' };
  }
  const userPart = user === undefined ? 'no user' : `user ${JSON.stringify(user)} from ${options.user !== undefined ? '-u' : 'TALLY_USER'}`;
  const keyPart = key === undefined ? 'no key' : `key from ${options.key !== undefined ? '-k' : 'TALLY_KEY'}`;
  return { credentials: { user: user ?? '', key: key ?? '' }, source: `Credentials: ${userPart}, ${keyPart}.` };
}
