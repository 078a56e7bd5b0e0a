import { callable } from '../../kernel/callable';
import { int, object } from '../../kernel/parameter';
import { ExtensionType } from './catalog';

/**
 * Declares a manager's callables on its class. The reference names each manager's id parameter
 * after its type (`plugin_id`, `module_id`, `gateway_id`), so the declarations are made per class
 * rather than once on the shared base.
 */
export function declareManagerCallables(managerClass: Function, type: ExtensionType): void {
  const id = int(`${type}_id`);
  const declare = (method: string, options: Parameters<typeof callable>[0]) => callable(options)(managerClass.prototype, method, {});
  declare('add', {
    verb: 'POST',
    params: [object('vars')],
    description: `Install a ${type} for the caller's company: vars[dir] names it (its directory), vars[settings][name] sets its settings. Runs its migrations and install hook. Returns the new ${type}_id.`,
  });
  declare('edit', { verb: 'PUT', params: [id, object('vars')], description: `Change an installed ${type}'s vars[settings] (secret ones are stored encrypted).` });
  declare('enable', { verb: 'PUT', params: [id], description: `Let the company call the ${type}'s models again.` });
  declare('disable', { verb: 'PUT', params: [id], description: `Keep the ${type} installed but answer 403 to calls of its models.` });
  declare('delete', { verb: 'DELETE', params: [id], description: `Uninstall the ${type}: its uninstall hook runs, and its tables are dropped when no other company has it.` });
  declare('get', { verb: 'GET', params: [id], description: `One installed ${type}, or null. Secret settings are listed in secrets_set, never shown.` });
  declare('getAll', { verb: 'GET', description: `Every ${type} in the extensions directory: installed ones with their id and status, others as available, or failed with the reason.` });
}
