import { Shape, ShapeFormat, ShapeKind } from '../../../core/kernel/shape';

/** Input: what a caller sends (a form field, `vars[...]`). Output: what the server answers. */
export type Direction = 'in' | 'out';

const TYPES: Record<ShapeKind, string | undefined> = { int: 'integer', string: 'string', bool: 'boolean', object: 'object', list: 'array', any: undefined, null: 'null' };

const DECIMAL = '^-?[0-9]+(\\.[0-9]+)?$';
const UTC_OUT = '^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$';

/** JSON Schema keywords of each string format; a blank input clears an optional code. */
const FORMATS: Record<ShapeFormat, Record<Direction, Record<string, unknown>>> = {
  money: {
    in: { pattern: DECIMAL, format: 'decimal', examples: ['10.00'] },
    out: { pattern: DECIMAL, format: 'decimal', examples: ['10.0000'], description: 'A decimal string, four places as stored.' },
  },
  decimal: { in: { pattern: DECIMAL, format: 'decimal', examples: ['1'] }, out: { pattern: DECIMAL, format: 'decimal', examples: ['1.0000'] } },
  timestamp: {
    in: { examples: ['2026-11-01T00:00:00Z'], description: "`YYYY-MM-DD hh:mm:ss ±hh:mm`, `YYYY-MM-DD hh:mm:ss UTC` or `YYYY-MM-DDThh:mm:ssZ`; without a zone, the company's timezone applies." },
    out: { pattern: UTC_OUT, examples: ['2026-11-01 00:00:00'], description: 'UTC, `YYYY-MM-DD hh:mm:ss`.' },
  },
  email: { in: { format: 'email', examples: ['ada@example.com'] }, out: { format: 'email', examples: ['ada@example.com'] } },
  country: { in: { pattern: '^([A-Z]{2})?$', examples: ['US'], description: 'ISO 3166-1 alpha-2, e.g. `US`.' }, out: { pattern: '^[A-Z]{2}$', examples: ['US'] } },
  state: { in: { pattern: '^([A-Z0-9]{1,3})?$', examples: ['NY'], description: 'ISO 3166-2 subdivision without the country, e.g. `NY`.' }, out: { pattern: '^[A-Z0-9]{1,3}$', examples: ['NY'] } },
  currency: { in: { pattern: '^[A-Z]{3}$', examples: ['USD'], description: 'ISO 4217 code, e.g. `USD`.' }, out: { pattern: '^[A-Z]{3}$', examples: ['USD'] } },
  base64: { in: { contentEncoding: 'base64' }, out: { contentEncoding: 'base64', examples: ['Yk9V1YTOd5/fNXxQXblMLg=='] } },
  hex: { in: { pattern: '^[0-9a-f]*$' }, out: { pattern: '^[0-9a-f]*$', examples: ['5d41402abc4b2a76b9719d911017c592'] } },
};

/**
 * The JSON Schema (2020-12, as OpenAPI 3.1 takes it) of a declared shape: types, formats as
 * patterns, enums, nested fields with the required ones named, and null where the shape allows it.
 */
export function schemaForShape(shape: Shape, direction: Direction): Record<string, unknown> {
  const schema: Record<string, unknown> = {};
  const type = TYPES[shape.kind];
  if (type) schema.type = shape.nullable && type !== 'null' ? [type, 'null'] : type;
  const descriptions: string[] = [];
  if (shape.description) descriptions.push(shape.description);
  if (shape.format) {
    const { description, ...keywords } = FORMATS[shape.format][direction];
    Object.assign(schema, keywords);
    if (typeof description === 'string') descriptions.push(description);
  }
  if (shape.example !== undefined) schema.examples = [shape.example];
  if (shape.enum) schema.enum = shape.nullable ? [...shape.enum, null] : [...shape.enum];
  if (shape.fields) {
    schema.properties = Object.fromEntries(shape.fields.map((f) => [f.name, schemaForShape(f, direction)]));
    const required = shape.fields.filter((f) => f.required).map((f) => f.name);
    if (required.length) schema.required = required;
  }
  if (shape.values) schema.additionalProperties = schemaForShape(shape.values, direction);
  if (shape.items) schema.items = schemaForShape(shape.items, direction);
  if (descriptions.length) schema.description = descriptions.join(' ');
  // The reference's readers answer false for a record that does not exist.
  return shape.falsable ? { anyOf: [schema, { const: false }], ...(schema.description ? { description: schema.description } : {}) } : schema;
}
