import { CallContext } from '../../kernel/call-context';
import { callable } from '../../kernel/callable';
import { ExtensionCatalog } from '../../kernel/extension-catalog';
import { facet } from '../../kernel/model';
import { ModelCalls } from '../../kernel/model-calls';
import { bool, listOf, nothing, record, string } from '../../kernel/shape';
import { TallyError } from '../../kernel/tally-error';
import { formatUtc } from '../../kernel/timestamps';
import { SettingsStore } from '../../settings-store';
import { SETTINGS } from '../../settings-catalogue';
import { callModule } from '../../billing/module-lifecycle';
import { ratesAgainst, readQuote } from '../../billing/exchange-rates';

/** An exchange rate processor is an extension with this model and method: it answers `{ base, date, rates }`. */
const PROCESSOR_MODEL = 'exchange_rates';
const PROCESSOR_METHOD = 'latest';

/**
 * The reference's exchange rate updates. A processor is an extension (a plugin) with a model
 * `exchange_rates` whose `latest` answers units of each currency for one unit of a base; the
 * company's `exchange_rates_processor` setting names the one it uses (the shipped
 * `ecb_exchange_rates`, the European Central Bank's daily rates, by default), which it installs with
 * plugin_manager/add. Rates are kept relative to the `default_currency` setting.
 */
@facet('currencies')
export class CurrencyExchangeRates {
  constructor(
    private readonly ctx: CallContext,
    private readonly catalog: ExtensionCatalog,
    private readonly calls: ModelCalls,
    private readonly settings: SettingsStore,
  ) {}

  @callable({
    verb: 'GET',
    returns: listOf(record({ dir: string(), name: string(), installed: bool(), selected: bool() })),
    description: 'The exchange rate processors in the extensions directory: installed (and enabled) for the company or not, and which one its exchange_rates_processor setting names.',
  })
  async getExchangeRateProcessors() {
    const selected = await this.setting('exchange_rates_processor');
    const processors = this.catalog.list().filter((e) => e.loaded && e.models.includes(`${e.name}.${PROCESSOR_MODEL}`));
    return Promise.all(
      processors.map(async (e) => ({
        dir: e.name,
        name: e.title ?? e.name,
        installed: await this.calls.available(this.ctx, `${e.name}.${PROCESSOR_MODEL}`, PROCESSOR_METHOD),
        selected: e.name === selected,
      })),
    );
  }

  @callable({
    verb: 'POST',
    returns: nothing(),
    description:
      "Ask the company's exchange rate processor (the exchange_rates_processor setting) for the latest rates and set every currency it quotes to its units for one unit of the default_currency setting; the others are left as they are. A processor not installed, failing, or not quoting the default currency is a 400 and changes nothing.",
  })
  async updateRates() {
    const processor = await this.setting('exchange_rates_processor');
    if (!(await this.calls.available(this.ctx, `${processor}.${PROCESSOR_MODEL}`, PROCESSOR_METHOD))) {
      throw TallyError.invalid({
        exchange_rates_processor: {
          unavailable: `The exchange rate processor "${processor}" is not installed and enabled for this company: install it with plugin_manager/add, or name another in the exchange_rates_processor setting.`,
        },
      });
    }
    const quote = readQuote(await callModule(this.ctx, this.calls, processor, PROCESSOR_MODEL, PROCESSOR_METHOD, {}, 'give exchange rates', 'The exchange rate processor'));
    if (!quote) throw TallyError.invalid({ exchange_rates_processor: { answer: `The exchange rate processor "${processor}" did not answer { base, date, rates } with positive rates.` } });
    const base = await this.setting('default_currency');
    const currencies = await this.ctx.db.selectFrom('currencies').select('code').where('company_id', '=', this.ctx.companyId).execute();
    const rates = ratesAgainst(
      quote,
      base,
      currencies.map((c) => c.code),
    );
    if (!rates) throw TallyError.invalid({ default_currency: { quoted: `The exchange rate processor "${processor}" does not quote the default currency ${base}.` } });
    const now = formatUtc(new Date());
    for (const [code, rate] of rates) {
      await this.ctx.db
        .updateTable('currencies')
        .set({ exchange_rate: rate.toFixed(10), exchange_updated: now })
        .where('company_id', '=', this.ctx.companyId)
        .where('code', '=', code)
        .execute();
    }
    return null;
  }

  private async setting(key: 'exchange_rates_processor' | 'default_currency'): Promise<string> {
    return (await this.settings.read(this.ctx.companyId, this.ctx.db)).get(key) ?? SETTINGS[key].default;
  }
}
