import pino from 'pino';
import { Installation } from '../../core/installation';
import { openInstallation } from '../cli/open-installation';
import { loadExtensions } from './load-extensions';

/**
 * The installation with its extensions loaded, for the command-line form of the API, so
 * `tally api/<plugin>.<model>/...` answers as over HTTP. Its log goes to stderr (warnings only):
 * stdout carries the response body.
 */
export async function openWithExtensions(): Promise<Installation> {
  const installation = await openInstallation();
  const logger = pino({ level: process.env.LOG_LEVEL ?? 'warn', base: { service: 'tally' } }, pino.destination(2));
  await loadExtensions(installation, { logger });
  return installation;
}
