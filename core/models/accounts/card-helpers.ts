import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { facet } from '../../kernel/model';
import { string } from '../../kernel/parameter';
import { bool as yes, listOf, orNull, string as text } from '../../kernel/shape';
import { TallyError } from '../../kernel/tally-error';
import { formatUtc, parseTimestamp } from '../../kernel/timestamps';
import { listAccounts } from '../../billing/account-ops';
import { creditCardType, luhnValid } from '../../billing/card-numbers';
import { localTime } from '../../billing/renew-dates';
import { ACCOUNT } from '../accounts.fields';

/**
 * The reference's card helpers of Accounts: a number's check digit and brand (computed, never
 * stored: Tally keeps only a gateway's token and the last four digits), and the cards that expire in
 * a month, which the card expiry reminders are about.
 */
@facet('accounts')
export class CardHelpers {
  constructor(private readonly ctx: CallContext) {}

  @callable({
    verb: 'POST',
    params: [string('card_number')],
    returns: yes(),
    description: "Whether a card number's Luhn check digit fits (spaces and dashes ignored). Send it in a POST body, which keeps the number out of URLs and access logs.",
  })
  luhnValid(cardNumber: string) {
    return luhnValid(cardNumber);
  }

  @callable({
    verb: 'POST',
    params: [string('card_number')],
    returns: orNull(text()),
    description:
      "The brand of a card number by its first digits and length, with the reference's codes (amex, visa, mc, disc, jcb, dc-int, dc-cb, cup, ipi, maes); null when none fits. Send it in a POST body, as luhnValid.",
  })
  creditCardType(cardNumber: string) {
    return creditCardType(cardNumber);
  }

  @callable({
    verb: 'GET',
    params: [string('date')],
    returns: listOf(ACCOUNT),
    description: "The active cards of the company's active clients that expire in the month of date (company time).",
  })
  getCardsExpireSoon(date: string) {
    const at = parseTimestamp(date, this.ctx.timezone);
    if (!at) throw TallyError.invalid({ date: { format: 'Please give a date as YYYY-MM-DD or YYYY-MM-DD hh:mm:ss.' } });
    const month = localTime(formatUtc(at), this.ctx.timezone).toFormat('yyyyMM');
    return listAccounts(this.ctx, 'cc', (q) =>
      q.where('expiration', '=', month).where('client_id', 'in', (eb) => eb.selectFrom('clients').select('id').where('company_id', '=', this.ctx.companyId).where('status', '=', 'active')),
    );
  }
}
