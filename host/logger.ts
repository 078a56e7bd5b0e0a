import pino from 'pino';

/** Structured logs on stdout; LOG_LEVEL=silent turns them off (the specs do). */
export function createLogger(level = process.env.LOG_LEVEL ?? 'info') {
  return pino({ level, base: { service: 'tally' } });
}

export type Logger = ReturnType<typeof createLogger>;
