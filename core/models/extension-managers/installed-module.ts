import { CallContext } from '../../kernel/call-context';
import { ExtensionCatalog, ExtensionInfo } from '../../kernel/extension-catalog';
import { TallyError } from '../../kernel/tally-error';
import { InstallRecord, InstallRecords } from './install-records';

export const invalidModule = () => TallyError.invalid({ module_id: { exists: 'Invalid module ID.' } });

/** The caller's company's installed module with this id (another company's reads as none), or undefined. */
export function findModule(ctx: CallContext, moduleId: number): Promise<InstallRecord | undefined> {
  return new InstallRecords(ctx.db, ctx.companyId).byId('module', moduleId);
}

/** The caller's company's installed module and what the catalogue knows of it; a 400 `module_id.exists` when it is not the company's. */
export async function requireModule(ctx: CallContext, catalog: ExtensionCatalog, moduleId: number): Promise<{ record: InstallRecord; info: ExtensionInfo | undefined }> {
  const record = await findModule(ctx, moduleId);
  if (!record) throw invalidModule();
  return { record, info: catalog.find('module', record.name) };
}
