import { TallyError } from '../../core/kernel/tally-error';
import { html, SafeHtml } from './html';
import { notice } from './page-response';

export type Outcome<T> = { ok: true; value: T } | { ok: false; messages: string[] };

/**
 * Runs a model call for a form. The model's validation errors (a 400 over the API) come back as
 * messages to show above the form; anything else is unexpected and goes on to the 500 page.
 */
export async function attempt<T>(work: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (error instanceof TallyError && error.code === 'bad_request') {
      const messages = error.errors ? Object.values(error.errors).flatMap((byCode) => Object.values(byCode)) : [error.message];
      return { ok: false, messages };
    }
    throw error;
  }
}

export function problemsNotice(messages: readonly string[]): SafeHtml {
  return notice(
    'error',
    html`<p>That could not be saved:</p>
<ul>${messages.map((m) => html`<li>${m}</li>`)}</ul>`,
  );
}
