import { callable, ExtensionContext, shape } from '../../../host/extensions/kit';

/** The ECB's daily reference rates: units of each currency for one euro. */
const DAILY = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml';

const QUOTE = shape.record({
  base: shape.string({ description: 'The currency the rates are quoted against: EUR.' }),
  date: shape.string({ description: 'The day the ECB published them, YYYY-MM-DD.' }),
  rates: shape.mapOf(shape.string(), { description: 'Currency code → units of it for one unit of base (the base itself included, at 1).' }),
});

/**
 * `ecb_exchange_rates.exchange_rates`: an exchange rate processor (a model named exchange_rates
 * with a method latest), which currencies/updateRates calls when the company's
 * exchange_rates_processor setting names this extension.
 */
export class ExchangeRates {
  constructor(private readonly ctx: ExtensionContext) {}

  @callable({ verb: 'GET', returns: QUOTE, description: "The ECB's latest euro reference rates." })
  async latest() {
    const answer = await this.ctx.http.fetch(DAILY, { method: 'GET', headers: { accept: 'application/xml' } });
    if (answer.status !== 200) throw this.ctx.invalid({ processor: { unavailable: `The ECB answered HTTP ${answer.status} for its daily rates; try again later.` } });
    return parseDaily(answer.body);
  }
}

/**
 * The rates of eurofxref-daily.xml: `<Cube time="YYYY-MM-DD">` holding one `<Cube currency="USD"
 * rate="1.0823"/>` per currency. Read with patterns (the sandbox has no XML parser); a document
 * without a date or a rate is refused rather than half read.
 */
export function parseDaily(xml: string): { base: string; date: string; rates: Record<string, string> } {
  const date = /<Cube\s+time=['"](\d{4}-\d{2}-\d{2})['"]/.exec(xml)?.[1];
  const rates: Record<string, string> = { EUR: '1' };
  for (const match of xml.matchAll(/<Cube\s+currency=['"]([A-Z]{3})['"]\s+rate=['"]([0-9]+(?:\.[0-9]+)?)['"]\s*\/>/g)) rates[match[1]] = match[2];
  if (!date || Object.keys(rates).length < 2) throw new Error('The ECB document holds no dated rates.');
  return { base: 'EUR', date, rates };
}

export const models = { exchange_rates: ExchangeRates };
