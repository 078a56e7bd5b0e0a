import { TallyError } from '../../core/kernel/tally-error';
import { moneyText } from '../web/money-text';

/**
 * An amount as the company writes it in that currency (currencies/format, called as the client),
 * or as Intl writes it for a currency the company has not set up.
 */
export async function formatMoney(call: (model: string, method: string, params: Record<string, unknown>) => Promise<unknown>, amount: string, currency: string): Promise<string> {
  try {
    return String(await call('currencies', 'format', { amount, code: currency }));
  } catch (error) {
    if (error instanceof TallyError && error.code === 'bad_request') return moneyText(amount, currency);
    throw error;
  }
}
