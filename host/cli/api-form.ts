import { Installation } from '../../core/installation';
import { suggestCall } from '../../core/kernel/call-suggestion';
import { resolveModelMethod } from '../../core/kernel/model-container';
import { afterCommandLineApiPrefix } from '../api/api-path';
import { dispatcher } from '../api/dispatch';
import { parseQueryString } from '../api/parameters';
import { API_FORM_USAGE, describeCallable } from './api-form-help';
import { apiFormCredentials } from './api-form-credentials';
import { databaseLine } from './open-installation';

interface ApiFormOptions {
  path: string;
  user?: string;
  key?: string;
  method: string;
  params: string;
  help?: boolean;
}

const FLAGS: Record<string, keyof Omit<ApiFormOptions, 'path' | 'help'>> = {
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
    if (argv[i] === '--help' || argv[i] === '-h') {
      options.help = true;
      continue;
    }
    const name = FLAGS[argv[i]];
    if (!name) return `Unknown option ${argv[i]}. Use -u USER -k KEY -m GET|POST|PUT|DELETE -p 'name=value&...' (--help says more).`;
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
    if (options.help) {
      out(helpFor(installation, options.path));
      return 0;
    }
    const { credentials, source } = apiFormCredentials(options);
    process.stderr.write(`${databaseLine(installation)}\n${source}\n`);
    const path = '/' + options.path.replace(/^\/+/, '');
    const answer = await dispatcher(installation)({
      verb: options.method,
      path,
      credentials,
      params: async () => parseQueryString(options.params),
      via: 'cli',
    });
    if (answer.failure) process.stderr.write(`${answer.failure instanceof Error ? answer.failure.stack : String(answer.failure)}\n`);
    out(answer.format.render(answer.root, answer.body, answer.shape));
    if (answer.status === 404) {
      const meant = suggestionFor(installation, options.path);
      if (meant) process.stderr.write(`Did you mean ${meant}?\n`);
    }
    return answer.status === 200 ? 0 : 1;
  } finally {
    await installation.close();
  }
}

/** `<model>/<method>.<format>` after the API prefix: the model, the method and the format token. */
const CALL = /^([^/]+)\/([^/.]+)(\.[^/]*)?$/;
const callParts = (path: string) => afterCommandLineApiPrefix(path)?.match(CALL);

/** `api/user/getlist.json` → `api/users/getList.json`, as the path was written otherwise. */
function suggestionFor(installation: Installation, path: string): string | undefined {
  const parts = callParts(path);
  const meant = parts && suggestCall(installation, parts[1], parts[2]);
  return meant ? path.replace(`${parts[1]}/${parts[2]}`, meant) : undefined;
}

/** The usage, and the method's parameters when the path names a callable method. */
function helpFor(installation: Installation, path: string): string {
  const parts = callParts(path);
  if (!parts) return API_FORM_USAGE;
  const found = resolveModelMethod(installation.container, parts[1], parts[2]);
  if (found.found) return `${API_FORM_USAGE}\n\n${describeCallable(found.entry.name, found.spec)}`;
  const meant = suggestCall(installation, parts[1], parts[2]);
  return `${API_FORM_USAGE}\n\nNo callable method ${parts[1]}/${parts[2]}${meant ? `; did you mean ${meant}?` : '.'}`;
}
