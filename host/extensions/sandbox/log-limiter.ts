import { Logger } from '../../logger';

/**
 * The host's end of an extension's logger: at most `perSecond` lines a second reach the host's log
 * (checked here again: the sandbox's own limit runs in code the extension could bypass); the rest
 * are counted and reported in one line a second, so a flood costs the host almost nothing.
 */
export class LogLimiter {
  private second = 0;
  private written = 0;
  private dropped = 0;

  constructor(
    private readonly extension: string,
    private readonly perSecond: number,
    private readonly logger: Logger,
  ) {}

  write(line: { level: 'info' | 'warn' | 'error'; message: string; data: string | null }): null {
    const now = Math.floor(Date.now() / 1000);
    if (now !== this.second) {
      if (this.dropped) this.logger.warn({ extension: this.extension, dropped: this.dropped }, 'extension log lines dropped (over the rate limit)');
      [this.second, this.written, this.dropped] = [now, 0, 0];
    }
    if (++this.written > this.perSecond) {
      this.dropped++;
      return null;
    }
    this.logger[line.level]({ extension: this.extension, data: line.data ?? undefined }, line.message);
    return null;
  }
}
