import { ParameterSpec } from '../../../core/kernel/parameter';

export interface ExtensionCallableOptions {
  /** The parameters, in order: core's int()/string()/object() helpers, `'name'`, or `{ name, kind, optional, default }`. */
  params?: Array<ParameterSpec | string | { name: string; kind?: string; optional?: boolean; default?: unknown }>;
  description?: string;
  verb?: 'GET' | 'POST' | 'PUT' | 'DELETE';
}

/**
 * Marks an extension model's method as callable. It writes the same static `callable` map a plain
 * JavaScript extension writes by hand, so the worker reads both the same way.
 */
export function callable(options: ExtensionCallableOptions = {}): MethodDecorator {
  return (target, key) => {
    const owner = target.constructor as { callable?: Record<string, ExtensionCallableOptions> };
    // Copy an inherited map rather than writing into the parent class's.
    if (!Object.prototype.hasOwnProperty.call(owner, 'callable')) owner.callable = { ...(owner.callable ?? {}) };
    owner.callable![String(key)] = options;
  };
}
