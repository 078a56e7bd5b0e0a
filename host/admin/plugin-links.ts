import { Installation } from '../../core/installation';

/** A staff navigation link a plugin registered (plugin_manager/addAction, location nav_staff): its name is text, its URL already a safe link. */
export interface PluginLink {
  readonly name: string;
  readonly url: string;
}

/**
 * The company's enabled plugins' staff navigation actions, read through the call path as the
 * signed-in member (every member reads them; the model keeps them to the company in view and
 * refused any URL that is not a path on Tally or an http(s) address when it was registered).
 * None when the installation has no plugin manager.
 */
export async function pluginLinks(installation: Installation, companyId: number, caller: { user: string; staffId: number }): Promise<readonly PluginLink[]> {
  if (!installation.isCallable('plugin_manager', 'getActions')) return [];
  const actions = (await installation.call('plugin_manager', 'getActions', { company_id: companyId, action: 'nav_staff', enabled: true }, { companyId, ...caller }, { via: 'admin' })) as Array<{
    name: string;
    url: string;
  }>;
  return actions.map(({ name, url }) => ({ name, url }));
}
