import { CallContext } from '../../core/kernel/call-context';
import { callable } from '../../core/kernel/callable';
import { model } from '../../core/kernel/model';
import { classEntry } from '../../core/kernel/model-entry';
import { int, list, object, string } from '../../core/kernel/parameter';
import { TallyError } from '../../core/kernel/tally-error';
import { formatUtc, parseTimestamp } from '../../core/kernel/timestamps';
import { Installation } from '../../core/installation';

/** The text a failing probe throws: a spec checks it never reaches the client. */
export const SECRET_FAILURE = 'probe exploded: db password is hunter2';

/** Resolvers of calls to `spec_probe/slowWrite` that have started and not yet written (for shutdown specs). */
export const slowWriteStarted: Array<() => void> = [];

/**
 * A model that exists only in specs, to reach rows of the contract no core model should exhibit:
 * a method that throws, one whose optional parameter has no known default, members that exist but
 * are not callable, an echo of whatever parameters arrive, and a slow write.
 */
@model('spec_probe')
export class SpecProbe {
  constructor(private readonly ctx: CallContext) {}

  @callable({ params: [object('vars', { default: {} })] })
  echo(vars: Record<string, unknown>) {
    return vars;
  }

  @callable()
  explode(): never {
    throw new Error(SECRET_FAILURE);
  }

  @callable({ params: [string('x', { optional: true })] })
  needsDefault(x: string) {
    return x;
  }

  /** Reads a caller's timestamp in the company's timezone; a 400 `format` when it is not one of the accepted forms. */
  @callable({ params: [string('at')] })
  stamp(at: string) {
    const parsed = parseTimestamp(at, this.ctx.timezone);
    if (!parsed) throw TallyError.invalid({ at: { format: 'The timestamp is in an invalid format.' } });
    return formatUtc(parsed);
  }

  /** Waits, then writes a company named `name`: an in-flight call for graceful-shutdown specs. */
  @callable({ params: [string('name'), int('wait_ms', { default: 300 })] })
  async slowWrite(name: string, waitMs: number) {
    slowWriteStarted.splice(0).forEach((resolve) => resolve());
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    await this.ctx.db
      .insertInto('companies')
      .values({ name, hostname: null, date_added: formatUtc(new Date()) })
      .execute();
    return name;
  }

  /** Marks the vars it was given; a default shared between calls would show earlier calls' marks. */
  @callable({ params: [object('vars', { default: {} }), list('tags', { default: [] })] })
  mark(vars: Record<string, unknown>, tags: unknown[]) {
    vars.marks = ((vars.marks as number | undefined) ?? 0) + 1;
    tags.push('marked');
    return { vars, tags };
  }

  /** Writes a company, then fails as `how` says (`invalid`: a 400; `crash`: a 500): nothing may remain. */
  @callable({ params: [string('name'), string('how')] })
  async writeThenFail(name: string, how: string) {
    await this.ctx.db
      .insertInto('companies')
      .values({ name, hostname: null, date_added: formatUtc(new Date()) })
      .execute();
    if (how === 'invalid') throw TallyError.invalid({ name: { valid: 'Refused after writing.' } });
    throw new Error('crashed after writing');
  }

  // Decorated, yet never callable: underscore-prefixed members are private by convention.
  @callable()
  _internal() {
    return 'must not be reachable';
  }

  undecorated() {
    return 'must not be reachable';
  }
}

/** Registers the probe model with an installation (idempotent per installation). */
export function installSpecProbe(installation: Installation): void {
  if (!installation.model('spec_probe')) installation.addModel(classEntry(SpecProbe));
}

/** A promise that settles when the next `slowWrite` call has started running. */
export function nextSlowWriteStarts(): Promise<void> {
  return new Promise((resolve) => slowWriteStarted.push(resolve));
}
