import { CallContext } from '../../kernel/call-context';
import { ExtensionCatalog, ExtensionInfo } from '../../kernel/extension-catalog';
import { TallyError } from '../../kernel/tally-error';
import { InstallRecord, InstallRecords } from './install-records';

export const invalidPlugin = () => TallyError.invalid({ plugin_id: { exists: 'Invalid plugin ID.' } });

/** The caller's company's installed plugin with this id (another company's reads as none), or undefined. */
export function findPlugin(ctx: CallContext, pluginId: number): Promise<InstallRecord | undefined> {
  return new InstallRecords(ctx.db, ctx.companyId).byId('plugin', pluginId);
}

/** The caller's company's installed plugin and what the catalogue knows of it; a 400 `plugin_id.exists` when it is not the company's. */
export async function requirePlugin(ctx: CallContext, catalog: ExtensionCatalog, pluginId: number): Promise<{ record: InstallRecord; info: ExtensionInfo | undefined }> {
  const record = await findPlugin(ctx, pluginId);
  if (!record) throw invalidPlugin();
  return { record, info: catalog.find('plugin', record.name) };
}

/** A `company_id` the reference lets callers name: only the caller's own company has plugins to show. */
export function ownCompany(ctx: CallContext, companyId: number | null): boolean {
  return companyId === null || companyId === ctx.companyId;
}
