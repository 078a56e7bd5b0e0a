/**
 * The API's paths: `/api/<model>/<method>.<format>`, or under `/index.php/api/` as the reference's
 * PHP front controller serves them. The one place that knows the prefix: the HTTP route, the
 * command-line form and its loader all read paths through here.
 */
const PREFIX = /^\/(?:index\.php\/)?api\//;

/** What follows the API prefix of a URL path (`users/get.json`), or undefined when it has none. */
export function afterApiPrefix(path: string): string | undefined {
  const prefix = PREFIX.exec(path)?.[0];
  return prefix === undefined ? undefined : path.slice(prefix.length);
}

/**
 * The same for a path typed on the command line (`tally api/users/get.json`): the leading slash
 * may be left out and the prefix written in any case.
 */
export function afterCommandLineApiPrefix(argument: string): string | undefined {
  const path = argument.startsWith('/') ? argument : `/${argument}`;
  const prefix = PREFIX.exec(path.slice(0, '/index.php/api/'.length).toLowerCase())?.[0];
  return prefix === undefined ? undefined : path.slice(prefix.length);
}
