import { defaultFormat, findFormat, Format } from './formats';
import { TallyError } from '../../core/kernel/tally-error';
import { afterApiPrefix } from './api-path';

export interface Route {
  readonly model: string;
  readonly method: string;
  readonly format: Format;
}

/** What a bad URL is answered in: its own format when one could be read, else JSON. */
export class RouteError extends TallyError {
  constructor(
    code: 'not_found' | 'unsupported_format',
    readonly format: Format = defaultFormat,
    readonly root = 'api',
  ) {
    super(code);
  }
}

const MODEL = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)?$/;
const METHOD = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Reads `/api/<model>/<method>.<format>` (or under `/index.php/api/`). No model or method is a 404,
 * a missing or unknown format a 415; both answered in JSON, since no format could be agreed.
 */
export function parseRoute(path: string): Route {
  // Clients call the same few paths over and over: reading each once saves the regexes per call.
  const known = parsed.get(path);
  if (known) return known;
  const route = readRoute(path);
  if (parsed.size >= 1000) parsed.clear();
  parsed.set(path, route);
  return route;
}

/** Paths read, good ones only (a bad one throws and is not kept). */
const parsed = new Map<string, Route>();

function readRoute(path: string): Route {
  const rest = afterApiPrefix(path);
  if (rest === undefined) throw new RouteError('not_found');
  const segments = rest.split('/').map(decode);
  if (segments.length !== 2 || segments.some((s) => s === null || s === '')) throw new RouteError('not_found');
  const [model, last] = segments as string[];
  const dot = last.lastIndexOf('.');
  const method = dot === -1 ? last : last.slice(0, dot);
  if (!MODEL.test(model) || !METHOD.test(method)) throw new RouteError('not_found');
  const format = dot === -1 ? undefined : findFormat(last.slice(dot + 1));
  if (!format) throw new RouteError('unsupported_format');
  return { model, method, format };
}

function decode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
