import { Installation } from '../../core/installation';
import { dispatch } from '../api/dispatch';
import { parseQueryString } from '../api/parameters';

interface ApiFormOptions {
  path: string;
  user?: string;
  key?: string;
  method: string;
  params: string;
}

const FLAGS: Record<string, keyof Omit<ApiFormOptions, 'path'>> = {
  '-u': 'user',
  '-user': 'user',
  '--user': 'user',
  '-k': 'key',
  '-key': 'key',
  '--key': 'key',
  '-m': 'method',
  '-method': 'method',
  '--method': 'method',
  '-p': 'params',
  '-params': 'params',
  '--params': 'params',
};

/** Reads `api/<model>/<method>.<format> -u USER -k KEY -m VERB -p 'a=1&b[c]=2'` (single-dash long options as the contract shows). */
export function parseApiForm(argv: string[]): ApiFormOptions | string {
  const options: ApiFormOptions = { path: argv[0], method: 'GET', params: '' };
  for (let i = 1; i < argv.length; i++) {
    const name = FLAGS[argv[i]];
    if (!name) return `Unknown option ${argv[i]}. Use -u USER -k KEY -m GET|POST|PUT|DELETE -p 'name=value&...'.`;
    if (i + 1 >= argv.length) return `The option ${argv[i]} needs a value.`;
    options[name] = argv[++i];
  }
  options.method = options.method.toUpperCase();
  return options;
}

/**
 * The command-line form of the API: the same call as over HTTP, run in-process against the same
 * database, with the same credentials check, verb rules, errors and formats. Prints the body;
 * answers the exit status (0 only on success).
 */
export async function runApiForm(argv: string[], open: () => Promise<Installation>, out: (text: string) => void): Promise<number> {
  const options = parseApiForm(argv);
  if (typeof options === 'string') {
    // A usage mistake, not an API answer: stdout stays reserved for formatted bodies.
    process.stderr.write(`${options}\n`);
    return 2;
  }
  const installation = await open();
  try {
    const path = '/' + options.path.replace(/^\/+/, '');
    const answer = await dispatch(installation, {
      verb: options.method,
      path,
      credentials: options.user !== undefined || options.key !== undefined ? { user: options.user ?? '', key: options.key ?? '' } : null,
      params: async () => parseQueryString(options.params),
      via: 'cli',
    });
    if (answer.failure) process.stderr.write(`${answer.failure instanceof Error ? answer.failure.stack : String(answer.failure)}\n`);
    out(answer.format.render(answer.root, answer.body));
    return answer.status === 200 ? 0 : 1;
  } finally {
    await installation.close();
  }
}
