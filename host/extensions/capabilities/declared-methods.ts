import { TallyError } from '../../../core/kernel/tally-error';
import { ExtensionInfo } from '../../../core/kernel/extension-catalog';

/**
 * Whether an extension may call `<model>/<method>`: its own models always; anything else only
 * when its manifest's `uses` lists it (names compare as the call path resolves them, ignoring
 * case). Anything else answers 403, as an API call to a method the caller may not call.
 */
export function assertDeclared(extension: ExtensionInfo | undefined, model: string, method: string): void {
  if (!extension) throw new TallyError('forbidden');
  const name = `${model}.${method}`.toLowerCase();
  if (model.toLowerCase().startsWith(`${extension.name}.`)) return;
  if (extension.capabilities.uses.some((declared) => declared.toLowerCase() === name)) return;
  throw new TallyError('forbidden');
}
