type Schema = Record<string, unknown>;

const asSchema = (value: unknown): Schema => (typeof value === 'object' && value !== null ? (value as Schema) : {});

/** The first type of a schema that is not null (`['string', 'null']` → `string`). */
export function mainType(schema: Schema): string | undefined {
  const types = ([] as unknown[]).concat(schema.type ?? []).filter((t) => t !== 'null');
  return types[0] as string | undefined;
}

/**
 * A value for a schema that a call on a fresh installation accepts: the declared example, else the
 * first allowed value, else one of its type. A set carries its required fields, or its first field
 * when none is required (an edit must change something).
 */
export function exampleValue(schema: Schema): unknown {
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (Array.isArray(schema.enum)) {
    const value = schema.enum.find((v) => v !== null);
    if (value !== undefined) return value;
  }
  if (schema.type === 'null') return null;
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
      const names = required.length ? required : Object.keys(properties).slice(0, 1);
      // A set whose fields are not declared (an extension's) can only be shown by its form.
      if (!names.length) return { field: 'value' };
      return Object.fromEntries(names.map((name) => [name, exampleValue(asSchema(properties[name]))]));
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
