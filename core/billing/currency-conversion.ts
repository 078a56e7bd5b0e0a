import { Amount, stored } from '../kernel/money';

/**
 * An amount in one currency of a company in another, by their exchange rates (each currency's value
 * in the company's default currency), kept to four places: currencies/convert and
 * packages/convertPricing.
 */
export function convertAmount(value: Amount, from: { exchange_rate: string }, to: { exchange_rate: string }): Amount {
  return value.dividedBy(stored(from.exchange_rate)).times(stored(to.exchange_rate)).toDecimalPlaces(4);
}
