import { CallableSpec } from '../../../core/kernel/callable';
import { ParameterKind, ParameterSpec } from '../../../core/kernel/parameter';

const KINDS: readonly ParameterKind[] = ['int', 'string', 'bool', 'object', 'list', 'any'];
const VERBS = ['GET', 'POST', 'PUT', 'DELETE'];

/**
 * A callable as the sandbox describes it, checked on the host before the host binds parameters
 * by it: names and kinds from fixed sets, defaults as plain data.
 */
export function checkDeclaredCallable(model: string, raw: any): CallableSpec {
  const where = `${model}.${String(raw?.method).slice(0, 64)}`;
  if (!raw || typeof raw.method !== 'string' || !/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(raw.method) || !Array.isArray(raw.params)) throw new Error(`The callable ${where} is malformed.`);
  const params: ParameterSpec[] = raw.params.map((p: any) => {
    if (!p || typeof p.name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(p.name) || !KINDS.includes(p.kind)) throw new Error(`A parameter of ${where} is malformed.`);
    return { name: p.name, kind: p.kind, optional: p.optional === true, defaultKnown: p.defaultKnown !== false, default: p.default, description: typeof p.description === 'string' ? p.description : undefined };
  });
  const verb = VERBS.includes(raw.verb) ? raw.verb : undefined;
  return { method: raw.method, params, description: typeof raw.description === 'string' ? raw.description : undefined, verb };
}
