import type { CallableOptions } from '../../../core/kernel/callable';
import type { TypedMethodDecorator } from '../../../core/kernel/callable-signature';
import type { ParameterSpec } from '../../../core/kernel/parameter';

/**
 * The declaration of an extension's callable method: core's `@callable` options (params, vars,
 * returns, description, verb), so the reference types an extension's methods as it types core's.
 */
export type ExtensionCallableOptions<P extends readonly ParameterSpec[] = readonly ParameterSpec[]> = Omit<CallableOptions<P>, 'namedLikeHook'>;

/**
 * Marks an extension model's method as callable, declared as core declares its own: a params list
 * out of step with the method's signature does not compile. It writes the same static `callable`
 * map a plain JavaScript extension writes by hand (the sandbox has no reflect-metadata), so the
 * worker reads both the same way.
 */
export function callable<const P extends readonly ParameterSpec[] = []>(options: ExtensionCallableOptions<P> = {}): TypedMethodDecorator<P> {
  return (target, key) => {
    const owner = target.constructor as { callable?: Record<string, ExtensionCallableOptions> };
    // Copy an inherited map rather than writing into the parent class's.
    if (!Object.prototype.hasOwnProperty.call(owner, 'callable')) owner.callable = { ...(owner.callable ?? {}) };
    owner.callable![String(key)] = options;
  };
}
