import { ParameterKind, ParameterSpec } from '../../../core/kernel/parameter';
import { schemaForShape } from './schema-for-shape';
import { JsonSchema } from './types';

const BY_KIND: Record<ParameterKind, Record<string, unknown>> = {
  int: { type: 'integer' },
  string: { type: 'string' },
  bool: { type: 'boolean', description: 'Sent in a form as 1/0, true/false, on/off or yes/no.' },
  object: { type: 'object', additionalProperties: true },
  list: { type: 'array', items: {} },
  any: {},
};

/** Object and list parameters travel in bracket notation: `vars[lines][0][amount]=5`. */
export function isBracketed(p: ParameterSpec): boolean {
  return p.kind === 'object' || p.kind === 'list';
}

/**
 * The JSON Schema of one declared parameter: its kind (with its fields or format when declared), and its default when it has one. A `null`
 * default widens the type to allow null, so the schema stays true to its own default.
 */
export function schemaForParameter(p: ParameterSpec): JsonSchema {
  const schema: Record<string, unknown> = { ...BY_KIND[p.kind] };
  delete schema.description;
  // Declared fields or a format say more than the kind alone: the set's fields, the string's pattern.
  if (p.fields || p.format) {
    // A list's declared fields are those of each of its items (`vars[0][key]`).
    const listOfSets = p.kind === 'list' && p.fields;
    Object.assign(schema, schemaForShape(listOfSets ? { kind: 'list', items: { kind: 'object', fields: p.fields } } : { kind: p.kind, fields: p.fields, format: p.format, items: undefined }, 'in'));
    if (p.fields) delete schema.additionalProperties;
    delete schema.description;
  }
  if (p.optional && p.defaultKnown && p.default !== undefined) {
    if (p.default === null && typeof schema.type === 'string') schema.type = [schema.type, 'null'];
    schema.default = p.default;
  }
  if (p.example !== undefined) schema.examples = [p.example];
  if (p.optional && !p.defaultKnown) schema['x-tally-default-unknown'] = true;
  return schema;
}

/** What a reader needs to know about a parameter beyond its schema. */
export function describeParameter(p: ParameterSpec): string {
  const parts: string[] = [];
  if (p.description) parts.push(p.description);
  if (p.format) {
    const note = schemaForShape({ kind: p.kind, format: p.format }, 'in').description;
    if (typeof note === 'string') parts.push(note);
  }
  const kindNote = BY_KIND[p.kind].description;
  if (typeof kindNote === 'string') parts.push(kindNote);
  if (p.kind === 'object') parts.push(`A set of named values, sent in brackets: \`${p.name}[field]=value\`, nested as \`${p.name}[lines][0][amount]=10.00\`.`);
  if (p.kind === 'list') parts.push(`A list, sent with explicit indexes: \`${p.name}[0]=a&${p.name}[1]=b\` (items may be sets: \`${p.name}[0][field]=value\`).`);
  if (p.optional && !p.defaultKnown) parts.push('Optional, but its default cannot be determined: always send it, or the call answers the default-value 500.');
  return parts.join(' ');
}
