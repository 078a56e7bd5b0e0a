import { callable } from '../../../core/kernel/callable';
import { model } from '../../../core/kernel/model';
import { classEntry } from '../../../core/kernel/model-entry';
import { any, bool, int, list, object, string } from '../../../core/kernel/parameter';
import { TallyError } from '../../../core/kernel/tally-error';
import { TestServer } from '../../support/test-server';

/**
 * A spec-only model that answers with what it was given, so SDK specs can see exactly what arrived
 * after encoding, transport and bracket parsing; plus one method per failure the SDK must surface.
 */
@model('sdk_echo')
export class EchoModel {
  @callable({ description: 'Answers vars as received.', verb: 'POST', params: [object('vars', { default: {} })] })
  echo(vars: Record<string, unknown>) {
    return vars;
  }

  @callable({
    description: 'Answers each parameter as bound, one of every kind.',
    verb: 'GET',
    params: [int('number'), string('text'), bool('flag', { default: false }), list('items', { default: [] }), any('extra', { default: null })],
  })
  kinds(number: number, text: string, flag: boolean, items: unknown[], extra: unknown) {
    return { number, text, flag, items, extra };
  }

  @callable({ description: 'Records a field error: a 400.', params: [string('name', { default: '' })] })
  refuse(name: string) {
    throw TallyError.invalid({ name: { empty: `Please enter a name (got "${name}").` } });
  }

  @callable({ description: 'Throws an unexpected error: a 500.' })
  crash(): never {
    throw new Error('sdk_echo crashed on purpose');
  }

  @callable({ description: 'Optional parameter without a known default: the default-value 500.', params: [string('x', { optional: true })] })
  needsDefault(x: string) {
    return x;
  }

  @callable({ description: 'Answers after wait_ms milliseconds.', params: [int('wait_ms')] })
  async slow(waitMs: number) {
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    return waitMs;
  }

  /** A member that exists but is not callable: a 403. */
  hidden() {
    return 'never over the API';
  }
}

export const ECHO = 'sdk_echo';

/** Adds the echo model to a running test server's installation. */
export function registerEcho(server: TestServer): void {
  server.installation.addModel(classEntry(EchoModel));
}
