import { callable } from '../../kernel/callable';
import { facet } from '../../kernel/model';
import { string } from '../../kernel/parameter';
import { string as text } from '../../kernel/shape';
import { TallyError } from '../../kernel/tally-error';
import { CALLING_CODES, intlNumber } from '../../billing/calling-codes';

/** The reference's contacts/intlNumber: a phone number with its country's calling code. */
@facet('contacts')
export class IntlNumber {
  @callable({
    verb: 'GET',
    params: [string('number'), string('country'), string('code_delimiter', { default: '.' })],
    returns: text({ example: '+1.5550100' }),
    description:
      "The number as +<calling code><code_delimiter><digits> for the country (ISO 3166-1 alpha-2): one written nationally gets the country code, one written with it keeps it once. A country Tally does not know, or a number written with another country's code, is a 400.",
  })
  intlNumber(number: string, country: string, delimiter: string) {
    const code = CALLING_CODES.get(country.trim().toUpperCase());
    if (!code) throw TallyError.invalid({ country: { exists: 'Please give the country as an ISO 3166-1 alpha-2 code such as US.' } });
    if (!/[0-9]/.test(number)) throw TallyError.invalid({ number: { format: 'Please give a phone number.' } });
    if (delimiter.length > 3 || /[0-9+]/.test(delimiter)) throw TallyError.invalid({ code_delimiter: { format: 'The delimiter is up to 3 characters, not digits or +.' } });
    const formatted = intlNumber(number, code, delimiter);
    if (formatted === null) throw TallyError.invalid({ number: { country: `The number is written with another country's calling code than ${country.toUpperCase()}'s (+${code}).` } });
    return formatted;
  }
}
