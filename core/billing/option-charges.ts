import { Amount, stored, sum } from '../kernel/money';

/** An option a service took, priced for the service's term, period and currency (decimal text as stored). */
export interface PricedOption {
  readonly label: string;
  readonly valueName: string;
  /** A quantity option's quantity; 1 for the others. */
  readonly qty: number;
  readonly price: string;
  readonly priceRenews: string | null;
  readonly setupFee: string;
}

/** What an option adds to one invoice: `unit` × `qty` for the period, and its setup fee once (as the package's, whatever the quantities). */
export interface OptionCharge {
  readonly option: PricedOption;
  readonly unit: Amount;
  /** The option's quantity times the service's. */
  readonly qty: number;
  /** Zero on a renewal. */
  readonly setup: Amount;
}

export interface ChargeTerms {
  readonly serviceQty: number;
  /** A renewal bills the renewal price (the price when none is set) and no setup fee. */
  readonly renew: boolean;
  /** Terms billed at once (a renewal of several cycles). */
  readonly cycles: number;
  /** A new service's prorated first period: the share of a term's price it owes (as the package's line). */
  readonly share?: (termPrice: Amount) => Amount;
}

/** One term's price of an option: the renewal price on a renewal, else the price. */
function termPrice(option: PricedOption, renew: boolean): Amount {
  return stored(renew ? (option.priceRenews ?? option.price) : option.price);
}

/**
 * The lines the service's options add to its invoice, priced as the package's own line is: a unit
 * amount per period (cycles × the term price, or the prorated share of it) and a quantity (the
 * option's times the service's), so the invoice's totals (totals.ts) multiply and round them as
 * every other line.
 */
export function optionCharges(options: readonly PricedOption[], terms: ChargeTerms): OptionCharge[] {
  return options.map((option) => {
    const price = termPrice(option, terms.renew).times(terms.cycles);
    return {
      option,
      unit: terms.share ? terms.share(price) : price,
      qty: option.qty * terms.serviceQty,
      setup: terms.renew ? stored(0) : stored(option.setupFee),
    };
  });
}

/**
 * One term of the options for `serviceQty` services, without setup fees: what a package change
 * adds to the old and the new price before it prorates the difference (package-change.ts), and
 * what a renewal adds to the service's renewal price.
 */
export function optionsTermPrice(options: readonly PricedOption[], serviceQty: number, renew = false): Amount {
  return sum(options.map((option) => termPrice(option, renew).times(option.qty * serviceQty)));
}
