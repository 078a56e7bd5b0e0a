/**
 * How a callable method declares its parameters. Binding reads this list, never the compiled source,
 * so names, kinds and defaults survive any build tool.
 */
import { Field, ShapeFormat } from './shape';

export type ParameterKind = 'int' | 'string' | 'bool' | 'object' | 'list' | 'any';

/**
 * What binding hands the method for each kind (bind-arguments.ts): an `object` may also arrive as a
 * list, which a method reads like a set with numbered names, so it is typed as the set it is meant to be.
 */
export interface KindValues {
  int: number;
  string: string;
  bool: boolean;
  object: Record<string, unknown>;
  list: unknown[];
  any: unknown;
}

/** Type-only key: the value a declared parameter binds to, so `@callable` can type the method (callable-signature.ts). */
export declare const BOUND_VALUE: unique symbol;

/** `V` is the value the method receives: the kind's value, or the default when the parameter is omitted. */
export interface ParameterSpec<V = unknown> {
  readonly name: string;
  readonly kind: ParameterKind;
  readonly optional: boolean;
  /** False for an optional parameter whose default cannot be determined (e.g. an extension shipped without it). */
  readonly defaultKnown: boolean;
  readonly default?: unknown;
  readonly description?: string;
  /** What a string holds (money, timestamp, currency code, ...), for the reference. */
  readonly format?: ShapeFormat;
  /** The named fields of an object parameter (`vars[username]`), for the reference. */
  readonly fields?: readonly Field[];
  /** A value that works on a fresh installation, for the reference's examples. */
  readonly example?: unknown;
  readonly [BOUND_VALUE]?: V;
}

/**
 * The value a parameter declared with options `O` binds to: its kind's, or a scalar default (null,
 * a text, a number). A set or list default is handed over as a copy, typed as the kind's value.
 */
type BoundValue<K extends ParameterKind, O> = O extends { default: infer D } ? KindValues[K] | Exclude<D, object> : KindValues[K];

export interface ParameterOptions {
  /** Makes the parameter optional with this default. */
  default?: unknown;
  /** Optional without a known default: calls that omit it answer the contract's default-value 500. */
  optional?: boolean;
  description?: string;
  format?: ShapeFormat;
  fields?: readonly Field[];
  example?: unknown;
}

function declare<K extends ParameterKind>(kind: K) {
  return <const O extends ParameterOptions = {}>(name: string, given?: O): ParameterSpec<BoundValue<K, O>> => {
    const options: ParameterOptions = given ?? {};
    const hasDefault = 'default' in options;
    return {
      name,
      kind,
      optional: hasDefault || options.optional === true,
      defaultKnown: hasDefault || options.optional !== true,
      default: options.default,
      description: options.description,
      ...(options.format ? { format: options.format } : {}),
      ...(options.fields ? { fields: options.fields } : {}),
      ...('example' in options ? { example: options.example } : {}),
    };
  };
}

export const int = declare('int');
export const string = declare('string');
export const bool = declare('bool');
/** A set of named values sent in brackets, such as `vars[username]`. */
export const object = declare('object');
export const list = declare('list');
export const any = declare('any');
