/**
 * How a callable method declares its parameters. Binding reads this list, never the compiled source,
 * so names, kinds and defaults survive any build tool.
 */
import { Field, ShapeFormat } from './shape';

export type ParameterKind = 'int' | 'string' | 'bool' | 'object' | 'list' | 'any';

export interface ParameterSpec {
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
}

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

function declare(kind: ParameterKind) {
  return (name: string, options: ParameterOptions = {}): ParameterSpec => {
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
