import { CallContext } from '../kernel/call-context';
import { ExtensionCatalog } from '../kernel/extension-catalog';
import { decodeSettings } from '../kernel/extension-settings-codec';
import { ModelCalls } from '../kernel/model-calls';

/** The card form a client's browser draws for the company's tokenising merchant gateway (gateway_payments/getCardForm). */
export interface CardForm {
  readonly gateway: string;
  readonly library: string;
  readonly script: string;
  readonly publishable_key: string;
  readonly script_origins: readonly string[];
  readonly frame_origins: readonly string[];
  readonly connect_origins: readonly string[];
}

/**
 * The company's enabled merchant gateway whose manifest declares a card form (the processor's
 * script tokenises the card in the browser) and that stores cards, with its publishable key; null
 * when there is none, or its key is not set (the form cannot work without it). The first installed
 * one wins, as accounts are added through one gateway at a time.
 */
export async function cardFormOf(ctx: CallContext, calls: ModelCalls, catalog: ExtensionCatalog): Promise<CardForm | null> {
  const installed = await ctx.db
    .selectFrom('extensions_installed')
    .select(['name', 'settings'])
    .where('company_id', '=', ctx.companyId)
    .where('type', '=', 'gateway')
    .where('status', '=', 'enabled')
    .orderBy('id')
    .execute();
  for (const row of installed) {
    const info = catalog.find('gateway', row.name);
    const declared = info?.kind === 'merchant' ? info.cardForm : null;
    if (!info || !declared) continue;
    const key = decodeSettings(row.settings, info.settings, ctx.systemKey)[declared.publishableKeySetting];
    if (typeof key !== 'string' || key.trim() === '' || !(await calls.available(ctx, `${row.name}.tokens`, 'store'))) continue;
    return {
      gateway: row.name,
      library: declared.library,
      script: declared.script,
      publishable_key: key.trim(),
      script_origins: declared.scriptOrigins,
      frame_origins: declared.frameOrigins,
      connect_origins: declared.connectOrigins,
    };
  }
  return null;
}

/** Whether the gateway takes cards only through its card form (a number given to it is refused before it is asked). */
export function tokenisesInBrowser(catalog: ExtensionCatalog, gateway: string): boolean {
  const info = catalog.find('gateway', gateway);
  return info?.kind === 'merchant' && !!info.cardForm;
}
