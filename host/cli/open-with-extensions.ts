import pino from 'pino';
import { config } from '../../core/config';
import { Installation } from '../../core/installation';
import { openInstallation } from './open-installation';
import { afterCommandLineApiPrefix } from '../api/api-path';

/** An extension model (`<extension>.<model>`) or a manager: only those need the extension runtime. */
const NEEDS_EXTENSIONS = /^(?:[^/]*\.[^/]*|[a-z]+_manager)\//i;

/**
 * How the command-line form of the API opens the installation for `path`: with its extensions
 * loaded when the call is about them, so `tally api/<plugin>.<model>/...` answers as over HTTP,
 * and without starting their workers for a core call. Logs go to stderr (warnings only): stdout
 * carries the response body.
 */
export function openForApiPath(path: string): () => Promise<Installation> {
  return async () => {
    if (!NEEDS_EXTENSIONS.test(afterCommandLineApiPrefix(path) ?? '')) return openInstallation();
    const logger = pino({ level: config().logLevel === 'info' ? 'warn' : config().logLevel, base: { service: 'tally' } }, pino.destination(2));
    return openInstallation({ extensions: { logger } });
  };
}
