import pino from 'pino';
import { config } from '../core/config';

/** Structured logs on stdout; LOG_LEVEL=silent turns them off (the specs do). */
export function createLogger(level = config().logLevel) {
  return pino({ level, base: { service: 'tally' } });
}

export type Logger = ReturnType<typeof createLogger>;
