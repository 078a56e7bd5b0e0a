import { callable } from '../../kernel/callable';
import { bool, int, object, string } from '../../kernel/parameter';
import { nothing } from '../../kernel/shape';
import { ExtensionType } from '../../kernel/extension-catalog';

/**
 * Declares a manager's callables on its class, with the reference's names, parameter order and
 * defaults (`plugin_id`, `module_id`, `gateway_id`; a plugin's `dir`, a module's or gateway's
 * `class`). Parameters the reference takes and Tally does not need (detailed, rows, groups, order,
 * client_id, client_group_id) are accepted and change nothing; see docs/compatibility.md.
 */
export function declareManagerCallables(managerClass: Function, type: ExtensionType): void {
  const id = int(`${type}_id`);
  const companyId = int('company_id', { default: null });
  const declare = (method: string, options: Parameters<typeof callable>[0]) => callable(options)(managerClass.prototype, method, {});
  declare('add', {
    verb: 'POST',
    params: [object('vars')],
    description: `Install a ${type} for the caller's company: vars[dir] (or vars[class]) names it (its directory), vars[settings][name] sets its settings. Runs its migrations and install hook. Returns the new ${type}_id.`,
  });
  declare('edit', { verb: 'PUT', params: [id, object('vars')], description: `Change an installed ${type}'s vars[settings] (secret ones are stored encrypted).` });
  declare('enable', { verb: 'PUT', params: [id], description: `Let the company call the ${type}'s models again.` });
  declare('disable', { verb: 'PUT', params: [id], description: `Keep the ${type} installed but answer 403 to calls of its models.` });
  declare('upgrade', {
    verb: 'PUT',
    params: [id],
    returns: nothing(),
    namedLikeHook: true,
    description: `Bring an installed ${type} up to the version in the extensions directory: its migrations not yet run (once for the installation), then its upgrade hook for the caller's company, then the new version on the company's row. Nothing runs when there is nothing to upgrade (get answers upgradable: false), and it still succeeds. A new version that needs an extension the company has not installed is refused (400 depends). A failing migration or hook keeps nothing.`,
  });
  declare('delete', { verb: 'DELETE', params: [id], description: `Uninstall the ${type}: its uninstall hook runs, and its tables are dropped when no other company has it.` });
  const getParams = type === 'plugin' ? [id, bool('detailed', { default: false }), companyId] : type === 'module' ? [id, bool('rows', { default: true }), bool('groups', { default: true })] : [id];
  declare('get', {
    verb: 'GET',
    params: getParams,
    description: `One installed ${type}, or false. Secret settings are listed in secrets_set, never shown. upgradable is true when upgrade has something to do: pending_migrations (a newer version's) or available_version differing from version.`,
  });
  const allParams =
    type === 'plugin'
      ? [int('company_id', { default: null }), object('order', { default: { name: 'asc' } })]
      : type === 'module'
        ? [int('company_id', { default: null }), string('sort_by', { default: 'name' }), string('order', { default: 'asc' }), object('filters', { default: [] })]
        : [
            int('company_id', { default: null }),
            string('type', { default: null }),
            object('order', { default: { 'gateways.name': 'ASC' } }),
            string('currency', { default: null }),
            int('client_id', { default: null }),
            int('client_group_id', { default: null }),
          ];
  declare('getAll', {
    verb: 'GET',
    params: allParams,
    description: `Every ${type} in the extensions directory: installed ones with their id and status, others as available, or failed with the reason (company_id defaults to the caller's; another company's lists nothing).`,
  });
  declare('getInstalled', { verb: 'GET', params: type === 'module' ? [object('filters', { default: [] })] : [], description: `The ${type}s the caller's company has installed.` });
  declare('getAvailable', {
    verb: 'GET',
    params: type === 'gateway' ? [string('type', { default: null }), companyId] : type === 'module' ? [companyId, string('type', { default: null })] : [companyId],
    description: `The ${type}s that load and the company has not installed.`,
  });
  const nameParam = type === 'plugin' ? 'plugin_dir' : 'class';
  declare(type === 'plugin' ? 'getByDir' : 'getByClass', {
    verb: 'GET',
    params: [string(nameParam), companyId],
    description: `The company's installation of the ${type} in that directory, as a list (empty when not installed).`,
  });
  declare('isInstalled', {
    verb: 'GET',
    params: type === 'plugin' ? [string('dir'), companyId] : type === 'module' ? [string('class'), companyId] : [string('class'), string('type'), companyId],
    description: `Whether the company has the ${type} installed${type === 'gateway' ? ' as that type (merchant, nonmerchant)' : ''}.`,
  });
  if (type !== 'gateway') return;
  declare('getCurrencies', { verb: 'GET', params: [id], description: 'The currencies an installed gateway takes (from its manifest).' });
  declare('verifyCurrency', {
    verb: 'GET',
    params: [string('currency'), int('company_id'), int('gateway_id', { default: null })],
    description: 'True when no other enabled merchant gateway of the company takes the currency.',
  });
  const clientParams = [int('client_id', { default: null }), int('client_group_id', { default: null })];
  declare('getInstalledMerchant', {
    verb: 'GET',
    params: [int('company_id'), string('currency', { default: null }), int('gateway_id', { default: null }), string('gateway_name', { default: null }), ...clientParams],
    description: 'The enabled merchant gateway (for the currency, with that id or directory name); false when there is none.',
  });
  declare('getInstalledNonmerchant', {
    verb: 'GET',
    params: [int('company_id'), string('gateway_name', { default: null }), int('gateway_id', { default: null }), string('currency', { default: null }), ...clientParams],
    description: 'One enabled non-merchant gateway (by directory name, id or currency); false when there is none.',
  });
  declare('getAllInstalledNonmerchant', {
    verb: 'GET',
    params: [int('company_id'), string('currency', { default: null }), ...clientParams],
    description: 'Every enabled non-merchant gateway, optionally taking the currency.',
  });
}
