import Decimal from 'decimal.js';
import { Catalogue, EN, MessageKey } from './messages-en';
import { ES } from './messages-es';
import { FR } from './messages-fr';

/** The languages the client area is written in, by their two-letter code. */
const CATALOGUES: ReadonlyMap<string, Catalogue> = new Map([
  ['en', EN],
  ['es', ES],
  ['fr', FR],
]);

export const CLIENT_LANGUAGES: readonly string[] = [...CATALOGUES.keys()];

type Params = Readonly<Record<string, string | number>>;

/** The client area's texts and formats in one language: what every page says, and how it writes dates, numbers and money. */
export interface ClientWords {
  /** The page's `<html lang>`: the language its texts are in, with the company's region (`es-MX`). */
  readonly lang: string;
  /** The text of a key with its `{name}` values put in (as text: the page escapes the result like any other value). */
  t(key: MessageKey, params?: Params): string;
  /** `base.one` or `base.other`, as the language's plural rules choose for `count`. */
  plural(base: PluralBase, count: number, params?: Params): string;
  /** A stored timestamp's day (`2026-01-31 ...`), as the language writes a date. */
  date(timestamp: string | null): string;
  /** A stored decimal as the language writes a number. */
  number(value: string): string;
  /** A stored amount in its currency, as the language writes money (exact: never through a binary float). */
  money(amount: string, currency: string): string;
}

export type PluralBase = MessageKey extends infer K ? (K extends `${infer B}.one` ? B : never) : never;

const cache = new Map<string, ClientWords>();

/**
 * The words of a company's `language` setting (`es_mx`, `fr_fr`, ...): its catalogue when the area
 * is written in that language, else English; a key a catalogue lacks is shown in English. Only the
 * company's setting chooses: nothing a visitor sends (a header, a parameter) does.
 */
export function clientWords(language: string | null | undefined): ClientWords {
  const setting = /^[a-z]{2}_[a-z]{2}$/.test(language ?? '') ? language! : 'en_us';
  const known = cache.get(setting);
  if (known) return known;
  const code = setting.slice(0, 2);
  const catalogue = CATALOGUES.get(code);
  const lang = catalogue ? supportedLocale(`${code}-${setting.slice(3).toUpperCase()}`, code) : 'en';
  const words = catalogueWords(lang, catalogue ?? EN);
  cache.set(setting, words);
  return words;
}

/** The locale with the company's region when Intl knows it, else the bare language. */
function supportedLocale(locale: string, code: string): string {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([locale]).length > 0 ? locale : code;
  } catch {
    return code;
  }
}

/** The words of one catalogue in one locale (a key the catalogue lacks is English). */
export function catalogueWords(lang: string, catalogue: Catalogue): ClientWords {
  const dates = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' });
  const numbers = new Intl.NumberFormat(lang, { maximumFractionDigits: 4 });
  const cents = new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const plurals = new Intl.PluralRules(lang);
  const t = (key: MessageKey, params: Params = {}) =>
    (catalogue[key] ?? EN[key]).replace(/\{(\w+)\}/g, (whole, name: string) => (Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole));
  return {
    lang,
    t,
    plural: (base, count, params = {}) => t(`${base}.${plurals.select(count) === 'one' ? 'one' : 'other'}` as MessageKey, { count, ...params }),
    date(timestamp) {
      const day = /^(\d{4})-(\d{2})-(\d{2})/.exec(timestamp ?? '');
      return day ? dates.format(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]))) : '';
    },
    number: (value) => numbers.format(value as unknown as number),
    money(amount, currency) {
      try {
        // A string is formatted as the exact decimal it is, never through a binary float.
        return new Intl.NumberFormat(lang, { style: 'currency', currency }).format(amount as unknown as number);
      } catch {
        // A code Intl does not know (a company may use any three letters): the amount with its code.
        return `${cents.format(new Decimal(amount).toFixed(2) as unknown as number)} ${currency}`;
      }
    },
  };
}
