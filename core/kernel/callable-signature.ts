/**
 * How a `params` list types the method it declares, so that a list out of step with the method
 * (a parameter too many or too few, two swapped, a kind the method does not take, a default it
 * cannot hold) is a compile error rather than a method bound wrongly at run time. Types only.
 */
import { ParameterSpec } from './parameter';

/** The arguments binding hands the method, in order, for a declared list. */
export type BoundArguments<P extends readonly ParameterSpec[]> = { -readonly [I in keyof P]: P[I] extends ParameterSpec<infer V> ? V : never };

/** A method that takes what the list binds (TypeScript accepts a method taking fewer; ArityCheck refuses it). */
export type DeclaredMethod<P extends readonly ParameterSpec[]> = (...args: BoundArguments<P>) => unknown;

/**
 * Fails (a property the descriptor cannot have) unless the method takes exactly as many parameters
 * as the list declares, counting its optional ones: binding always passes every declared one.
 */
export type ArityCheck<T extends (...args: any[]) => unknown, P extends readonly unknown[]> = Required<Parameters<T>>['length'] extends P['length']
  ? unknown
  : { readonly 'the params list and the method take a different number of parameters': never };

/** The decorator `@callable(...)` returns: it accepts only a method of the declared signature. */
export type TypedMethodDecorator<P extends readonly ParameterSpec[]> = <T extends DeclaredMethod<P>>(
  target: object,
  key: string | symbol,
  descriptor: TypedPropertyDescriptor<T> & ArityCheck<T, P>,
) => void;
