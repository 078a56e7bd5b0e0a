type Schema = Record<string, unknown>;

const asSchema = (value: unknown): Schema => (typeof value === 'object' && value !== null ? (value as Schema) : {});

/** The first type of a schema that is not null (`['string', 'null']` → `string`). */
export function mainType(schema: Schema): string | undefined {
  const types = ([] as unknown[]).concat(unlessFalse(schema).type ?? []).filter((t) => t !== 'null');
  return types[0] as string | undefined;
}

/** Whether a schema is `{anyOf: [record, {const: false}]}`: the reference's readers answer false for a missing record. */
export const orFalse = (schema: Schema): boolean => Array.isArray(schema.anyOf) && schema.anyOf.some((s) => asSchema(s).const === false);

/** The schema of what is answered when it is not false. */
export function unlessFalse(schema: Schema): Schema {
  if (!Array.isArray(schema.anyOf)) return schema;
  const kept = schema.anyOf.map(asSchema).filter((s) => s.const !== false);
  return kept.length === 1 ? { ...kept[0], ...(schema.description ? { description: schema.description } : {}) } : schema;
}

/**
 * Values for parameters declared with a bare type and no example, by their name, so their curl line
 * still works as written (amount=text is refused as not a number).
 */
const BY_NAME: Record<string, unknown> = {
  amount: '10.00',
  value: '10.00',
  currency: 'USD',
  from_currency: 'USD',
  to_currency: 'USD',
  code: 'USD',
  due_date: '2026-12-01',
  service_ids: [1],
  invoice_ids: [1],
};

/**
 * A value for a schema that a call on a fresh installation accepts: the declared example, else the
 * first allowed value, else (for a bare parameter) one its name calls for, else one of its type. A
 * set carries its required fields and those declaring an example (the reference needs some fields
 * only when others are missing: a client's names when no user_id is given), or its first field when
 * there are none (an edit must change something). A record-or-false answer shows the record.
 */
export function exampleValue(schema: Schema, name?: string): unknown {
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (orFalse(schema)) return exampleValue(unlessFalse(schema), name);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) {
    const value = schema.enum.find((v) => v !== null);
    if (value !== undefined) return value;
  }
  if (schema.type === 'null') return null;
  if (name !== undefined && name in BY_NAME && schema.enum === undefined) return BY_NAME[name];
  switch (mainType(schema)) {
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'string':
      return 'text';
    case 'array':
      return [exampleValue(asSchema(schema.items))];
    case 'object': {
      const properties = asSchema(schema.properties);
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
      const exemplified = Object.keys(properties).filter((field) => !required.includes(field) && Array.isArray(asSchema(properties[field]).examples));
      const names = required.length || exemplified.length ? [...required, ...exemplified] : Object.keys(properties).slice(0, 1);
      // A set whose fields are not declared (an extension's, a map) can only be shown by its form,
      // with a value of the kind a map declares for its values.
      const values = schema.additionalProperties;
      if (!names.length) return { field: values && typeof values === 'object' ? exampleValue(asSchema(values)) : 'value' };
      return Object.fromEntries(names.map((field) => [field, exampleValue(asSchema(properties[field]), field)]));
    }
    default:
      return 'value';
  }
}

/** `vars` = {lines: [{amount: '1'}]} → `vars[lines][0][amount]=1`, as PHP's http_build_query writes it. */
export function bracketPairs(name: string, value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => bracketPairs(`${name}[${i}]`, item));
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([key, item]) => bracketPairs(`${name}[${key}]`, item));
  return [`${name}=${String(value)}`];
}
