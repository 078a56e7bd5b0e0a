import { mainType, orFalse, unlessFalse } from './example-values';
import { Operation, ParameterObject } from './types';

type Schema = Record<string, unknown>;

/** One parameter or field as a reader sees it, nested fields flattened (`vars[lines][i][amount]`). */
export interface FieldRow {
  readonly name: string;
  /** How deep it is nested: 0 for a parameter or the answer itself. */
  readonly depth: number;
  readonly type: string;
  readonly required: boolean;
  readonly default?: unknown;
  readonly description: string;
}

const asSchema = (value: unknown): Schema => (typeof value === 'object' && value !== null ? (value as Schema) : {});

/** `string (money)`, `array of object`, `integer or null`, `string: one of a, b`, `object or false`. */
export function typeLabel(schema: Schema): string {
  if (orFalse(schema)) return `${typeLabel(unlessFalse(schema))} or false`;
  const type = mainType(schema) ?? 'any';
  let label = type === 'array' ? `array of ${mainType(asSchema(schema.items)) ?? 'any'}` : type;
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  if (format) label += ` (${format})`;
  if (Array.isArray(schema.type) && schema.type.includes('null')) label += ' or null';
  const allowed = Array.isArray(schema.enum) ? schema.enum : Array.isArray(asSchema(schema.items).enum) ? (asSchema(schema.items).enum as unknown[]) : undefined;
  if (allowed) label += `: one of ${allowed.filter((v) => v !== null).join(', ')}`;
  return label;
}

/**
 * A schema and every field inside it, as rows: `brackets` names fields as they are sent
 * (`vars[lines][i][amount]`), otherwise as they are read from an answer (`lines[].amount`).
 */
export function fieldRows(name: string, schema: Schema, required: boolean, brackets: boolean, depth = 0, description?: string): FieldRow[] {
  const row: FieldRow = { name, depth, type: typeLabel(schema), required, description: description ?? String(schema.description ?? '') };
  const rows = ['default' in schema ? { ...row, default: schema.default } : row];
  const answered = unlessFalse(schema);
  const items = asSchema(answered.items);
  const holder = mainType(schema) === 'array' ? items : answered;
  const properties = asSchema(holder.properties);
  const needed = Array.isArray(holder.required) ? (holder.required as string[]) : [];
  const prefix = mainType(schema) === 'array' ? (brackets ? `${name}[i]` : `${name}[]`) : name;
  for (const [field, child] of Object.entries(properties)) {
    const childName = brackets ? `${prefix}[${field}]` : depth === 0 && name === 'response' && prefix === name ? field : `${prefix}.${field}`;
    rows.push(...fieldRows(childName, asSchema(child), needed.includes(field), brackets, depth + 1));
  }
  return rows;
}

/** The method's parameters (the format path segment aside) and the fields of its sets. */
export function parameterRows(operation: Operation): FieldRow[] {
  const query = operation.parameters.filter((p): p is ParameterObject => !('$ref' in p) && p.in === 'query');
  const rows = query.flatMap((p) => fieldRows(p.name, asSchema(p.schema), p.required, true, 0, p.description));
  const form = asSchema(operation.requestBody?.content['application/x-www-form-urlencoded']?.schema);
  const needed = Array.isArray(form.required) ? (form.required as string[]) : [];
  for (const [name, schema] of Object.entries(asSchema(form.properties))) rows.push(...fieldRows(name, asSchema(schema), needed.includes(name), true));
  return rows;
}

/** The fields of what the method answers inside `response`, when it declares them. */
export function responseRows(operation: Operation): FieldRow[] {
  const ok = asSchema(operation.responses['200']);
  const json = asSchema(asSchema(asSchema(ok.content)['application/json']).schema);
  const response = asSchema(asSchema(json.properties).response);
  return Object.keys(response).length ? fieldRows('response', response, true, false) : [];
}
