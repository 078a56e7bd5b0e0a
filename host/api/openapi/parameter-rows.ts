import { Operation, ParameterObject } from './types';

/** One parameter of an operation as a reader sees it, wherever the document keeps it. */
export interface ParameterRow {
  readonly name: string;
  readonly where: 'query' | 'body';
  readonly type: string;
  readonly required: boolean;
  readonly default?: unknown;
  readonly description: string;
}

/** The method's parameters: query parameters (the format path segment aside) or the form body's fields. */
export function parameterRows(operation: Operation): ParameterRow[] {
  const query = operation.parameters.filter((p): p is ParameterObject => !('$ref' in p) && p.in === 'query');
  const rows: ParameterRow[] = query.map((p) => row(p.name, 'query', p.schema, p.required, p.description));
  const form = operation.requestBody?.content['application/x-www-form-urlencoded']?.schema as
    | { properties?: Record<string, Record<string, unknown>>; required?: string[] }
    | undefined;
  for (const [name, schema] of Object.entries(form?.properties ?? {})) {
    rows.push(row(name, 'body', schema, form?.required?.includes(name) ?? false, schema.description as string | undefined));
  }
  return rows;
}

function row(name: string, where: ParameterRow['where'], schema: unknown, required: boolean, description?: string): ParameterRow {
  const s = (typeof schema === 'object' && schema !== null ? schema : {}) as Record<string, unknown>;
  const types = ([] as unknown[]).concat(s.type ?? 'any').filter((t) => t !== 'null');
  const base: ParameterRow = { name, where, type: String(types[0] ?? 'any'), required, description: description ?? '' };
  return 'default' in s ? { ...base, default: s.default } : base;
}
