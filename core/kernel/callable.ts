import { TypedMethodDecorator } from './callable-signature';
import { CALLABLES_KEY } from './metadata-keys';
import { ParameterSpec } from './parameter';
import { Field, Shape } from './shape';

export interface CallableSpec {
  readonly method: string;
  readonly params: readonly ParameterSpec[];
  readonly description?: string;
  /** The verb a client should use; documentation only, the API accepts any of the four. */
  readonly verb?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The shape of what the method answers (inside `response`); undeclared, any value. */
  readonly returns?: Shape;
  /** Named like a lifecycle hook on purpose: see CallableOptions. */
  readonly namedLikeHook?: boolean;
  /** Runs outside any transaction and makes its own short ones: see CallableOptions. */
  readonly ownsTransactions?: boolean;
}

export interface CallableOptions<P extends readonly ParameterSpec[] = readonly ParameterSpec[]> {
  /** The parameters in the method's order; the method must take exactly these (callable-signature.ts). */
  params?: P;
  description?: string;
  verb?: CallableSpec['verb'];
  /** The fields of the method's `vars` parameter (see `core/kernel/shape.ts`). */
  vars?: readonly Field[];
  /** The shape of what the method answers. */
  returns?: Shape;
  /**
   * A method named like a lifecycle hook (install, uninstall, upgrade) that is an API method of its
   * own, such as the managers' upgrade(id) of the reference: callable only with this said outright.
   */
  namedLikeHook?: boolean;
  /**
   * The method waits on extension code that may take its time (a gateway asking its processor), so
   * the call path runs it outside any transaction, as it runs an extension's method
   * (ModelEntry.ownsTransactions): `ctx.db` is the database itself, and the method makes its
   * writes atomic in short transactions of its own (core/kernel/short-transaction.ts).
   */
  ownsTransactions?: boolean;
}

/**
 * Marks a model method as callable over the API and the CLI, with its parameter list; `vars` and
 * `returns` declare the fields it takes and the shape it answers, for the reference and clients.
 * The list types the method: one out of step with the method's signature does not compile.
 */
export function callable<const P extends readonly ParameterSpec[] = []>(options: CallableOptions<P> = {}): TypedMethodDecorator<P> {
  return (target, propertyKey) => {
    const method = String(propertyKey);
    const owner = target.constructor;
    const inherited: Map<string, CallableSpec> = Reflect.getMetadata(CALLABLES_KEY, owner) ?? new Map();
    const callables = new Map(inherited);
    callables.set(method, {
      method,
      params: (options.params ?? []).map((p) => (p.name === 'vars' && options.vars ? { ...p, fields: options.vars } : p)),
      description: options.description,
      verb: options.verb,
      returns: options.returns,
      ...(options.namedLikeHook ? { namedLikeHook: true } : {}),
      ...(options.ownsTransactions ? { ownsTransactions: true } : {}),
    });
    Reflect.defineMetadata(CALLABLES_KEY, callables, owner);
  };
}

export function callablesOf(modelClass: Function): Map<string, CallableSpec> {
  return Reflect.getMetadata(CALLABLES_KEY, modelClass) ?? new Map();
}
