import { CALLABLES_KEY } from './metadata-keys';
import { ParameterSpec } from './parameter';

export interface CallableSpec {
  readonly method: string;
  readonly params: readonly ParameterSpec[];
  readonly description?: string;
  /** The verb a client should use; documentation only, the API accepts any of the four. */
  readonly verb?: 'GET' | 'POST' | 'PUT' | 'DELETE';
}

export interface CallableOptions {
  params?: ParameterSpec[];
  description?: string;
  verb?: CallableSpec['verb'];
}

/** Marks a model method as callable over the API and the CLI, with its parameter list. */
export function callable(options: CallableOptions = {}): MethodDecorator {
  return (target, propertyKey) => {
    const method = String(propertyKey);
    const owner = target.constructor;
    const inherited: Map<string, CallableSpec> = Reflect.getMetadata(CALLABLES_KEY, owner) ?? new Map();
    const callables = new Map(inherited);
    callables.set(method, {
      method,
      params: options.params ?? [],
      description: options.description,
      verb: options.verb,
    });
    Reflect.defineMetadata(CALLABLES_KEY, callables, owner);
  };
}

export function callablesOf(modelClass: Function): Map<string, CallableSpec> {
  return Reflect.getMetadata(CALLABLES_KEY, modelClass) ?? new Map();
}
