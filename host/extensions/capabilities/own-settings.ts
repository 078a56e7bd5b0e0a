import { Tx } from '../../../core/db/schema';
import { CallContext } from '../../../core/kernel/call-context';
import { ExtensionInfo } from '../../../core/kernel/extension-catalog';
import { decodeSettings } from '../../../core/kernel/extension-settings-codec';

/** `ctx.settings()`: this extension's settings for the calling company, its secrets decrypted for it alone. */
export async function ownSettings(extension: ExtensionInfo, db: Tx, ctx: CallContext): Promise<Record<string, string>> {
  const row = await db
    .selectFrom('extensions_installed')
    .select('settings')
    .where('company_id', '=', ctx.companyId)
    .where('type', '=', extension.type)
    .where('name', '=', extension.name)
    .executeTakeFirst();
  return row ? decodeSettings(row.settings, extension.settings, ctx.systemKey) : {};
}
