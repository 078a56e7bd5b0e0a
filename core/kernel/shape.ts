/**
 * The shape of a value a callable method takes (the fields of its `vars`) or answers (a record, a
 * list of records, an id). Declared next to the model (`core/models/<model>.fields.ts`) and named in
 * `@callable({ vars, returns })`, so the reference and generated clients know every field. These
 * declarations document; the model's own rules still decide what is valid.
 */
export type ShapeKind = 'int' | 'string' | 'bool' | 'object' | 'list' | 'any' | 'null';

/**
 * What a string holds beyond "text". `timestamp` is read as any of the accepted input forms and
 * always written as UTC `YYYY-MM-DD hh:mm:ss`; `money` and `decimal` are decimal strings.
 */
export type ShapeFormat = 'money' | 'decimal' | 'timestamp' | 'email' | 'country' | 'state' | 'currency' | 'base64' | 'hex';

export interface Shape {
  readonly kind: ShapeKind;
  readonly format?: ShapeFormat;
  readonly description?: string;
  readonly nullable?: boolean;
  /** The answer may be `false`: the reference's "false if it does not exist". */
  readonly falsable?: boolean;
  readonly enum?: readonly (string | number)[];
  /** The named fields of a set (a record or `vars`). */
  readonly fields?: readonly Field[];
  /** A set whose keys are not fixed (e.g. setting name → value): the shape of each value. */
  readonly values?: Shape;
  /** The items of a list. */
  readonly items?: Shape;
  /** A value that works in a call on a fresh installation, for the reference's examples. */
  readonly example?: unknown;
}

/** One named field of a set; `required` means a caller must send it, or a record always carries it. */
export interface Field extends Shape {
  readonly name: string;
  readonly required: boolean;
}

export interface ShapeOptions {
  format?: ShapeFormat;
  description?: string;
  nullable?: boolean;
  enum?: readonly (string | number)[];
  /** In `inputs({...})`: the caller must send it. In `record({...})` every field is present anyway. */
  required?: boolean;
  /** A value that works in a call on a fresh installation (the reference's curl lines use it). */
  example?: unknown;
}

type Declared = Shape & { readonly required?: boolean };

function scalar(kind: ShapeKind) {
  return (options: ShapeOptions = {}): Declared => ({ kind, ...options });
}

export const int = scalar('int');
export const string = scalar('string');
export const bool = scalar('bool');
export const any = scalar('any');
export const money = (options: ShapeOptions = {}): Declared => string({ format: 'money', ...options });
export const timestamp = (options: ShapeOptions = {}): Declared => string({ format: 'timestamp', ...options });
/** The method answers null (nothing to say, or deleted). */
export const nothing = (): Shape => ({ kind: 'null' });

/** A list of `items`. */
export function listOf(items: Shape, options: ShapeOptions = {}): Declared {
  return { kind: 'list', items, ...options };
}

/** A set with fixed names: every field present (a record the server answers with). */
export function record(fields: Record<string, Declared> | readonly Field[], options: ShapeOptions = {}): Declared {
  const list = Array.isArray(fields) ? fields : named(fields as Record<string, Declared>, true);
  return { kind: 'object', fields: list, ...options };
}

/** A set whose names vary, each value of shape `values`. */
export function mapOf(values: Shape, options: ShapeOptions = {}): Declared {
  return { kind: 'object', values, ...options };
}

/** The fields a caller sends (e.g. in `vars`): required only where declared so. */
export function inputs(fields: Record<string, Declared>): Field[] {
  return named(fields, false);
}

/** The same fields, every one optional: an edit changes only what it names. */
export function allOptional(fields: readonly Field[]): Field[] {
  return fields.map((f) => ({ ...f, required: false }));
}

/** A record's shape as an answer that may be absent: null when there is no such record. */
export function orNull(shape: Shape): Shape {
  return { ...shape, nullable: true };
}

/** A record's shape as the reference answers a reader: `false` when there is no such record. */
export function orFalse(shape: Shape): Shape {
  return { ...shape, falsable: true };
}

function named(fields: Record<string, Declared>, present: boolean): Field[] {
  return Object.entries(fields).map(([name, { required, ...shape }]) => ({ ...shape, name, required: present || required === true }));
}
