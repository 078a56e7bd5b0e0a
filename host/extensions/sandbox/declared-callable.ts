import { CallableSpec } from '../../../core/kernel/callable';
import { ParameterKind, ParameterSpec } from '../../../core/kernel/parameter';
import { checkDeclaredFields, checkDeclaredShape, checkExample, checkFormat, SHAPE_LIMITS, ShapeBudget } from './declared-shape';

const KINDS: readonly ParameterKind[] = ['int', 'string', 'bool', 'object', 'list', 'any'];
const VERBS = ['GET', 'POST', 'PUT', 'DELETE'];

/**
 * A callable as the sandbox describes it, checked on the host before the host binds parameters
 * by it: names and kinds from fixed sets, defaults as plain data, and the shapes of its `vars`
 * fields and its answer checked as declared-shape.ts checks them, so the reference types it as it
 * types a core method.
 */
export function checkDeclaredCallable(model: string, raw: any): CallableSpec {
  const where = `${model}.${String(raw?.method).slice(0, 64)}`;
  if (!raw || typeof raw.method !== 'string' || !/^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(raw.method) || !Array.isArray(raw.params)) throw new Error(`The callable ${where} is malformed.`);
  const budget: ShapeBudget = { nodes: SHAPE_LIMITS.nodes };
  const params: ParameterSpec[] = raw.params.map((p: any) => {
    if (!p || typeof p.name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(p.name) || !KINDS.includes(p.kind)) throw new Error(`A parameter of ${where} is malformed.`);
    const at = `${where}(${p.name})`;
    return {
      name: p.name,
      kind: p.kind,
      optional: p.optional === true,
      defaultKnown: p.defaultKnown !== false,
      default: p.default,
      description: typeof p.description === 'string' ? p.description : undefined,
      ...(p.format !== undefined ? { format: checkFormat(at, p.format) } : {}),
      ...(p.fields !== undefined ? { fields: checkDeclaredFields(`${at}.fields`, p.fields, budget) } : {}),
      ...(p.example !== undefined ? { example: checkExample(`${at}.example`, p.example) } : {}),
    };
  });
  const verb = VERBS.includes(raw.verb) ? raw.verb : undefined;
  const returns = raw.returns === undefined ? undefined : checkDeclaredShape(`${where}.returns`, raw.returns, budget);
  return { method: raw.method, params, description: typeof raw.description === 'string' ? raw.description : undefined, verb, ...(returns ? { returns } : {}) };
}
