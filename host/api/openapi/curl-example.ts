import { bracketPairs, exampleValue } from './example-values';
import { Operation, ParameterObject } from './types';

type Schema = Record<string, unknown>;

/**
 * A set that is optional as a whole (`vars` defaults to {}) may still have fields a call needs:
 * required ones, or ones needed only when others are missing (a client's names unless user_id is
 * given), which declare an example to be shown.
 */
const needsFields = (schema: Schema) =>
  (Array.isArray(schema.required) && schema.required.length > 0) || Object.values((schema.properties ?? {}) as Record<string, Schema>).some((field) => Array.isArray(field.examples));

/** The parameters a call must send, with example values: required query parameters or body fields. */
export function exampleParameters(operation: Operation): Array<[string, unknown]> {
  const query = operation.parameters
    .filter((p): p is ParameterObject => !('$ref' in p) && p.in === 'query' && (p.required || needsFields(p.schema as Schema)))
    .map((p): [string, unknown] => [p.name, exampleValue(p.schema as Schema, p.name)]);
  const body = operation.requestBody?.content['application/x-www-form-urlencoded']?.schema as Schema | undefined;
  const properties = (body?.properties ?? {}) as Record<string, Schema>;
  const required = (body?.required ?? []) as string[];
  const sent = Object.keys(properties).filter((name) => required.includes(name) || needsFields(properties[name]));
  return [...query, ...sent.map((name): [string, unknown] => [name, exampleValue(properties[name], name)])];
}

/**
 * A curl command for the operation that works as written on a fresh installation (with records
 * id 1 where it names them): header auth from TALLY_URL, TALLY_USER and TALLY_KEY, every required
 * parameter with an example value, sets and lists in bracket notation, where the server reads them.
 */
export function curlExample(verb: string, path: string, operation: Operation): string {
  const url = `$TALLY_URL${path.replace('{format}', 'json')}`;
  const pairs = exampleParameters(operation).flatMap(([name, value]) => bracketPairs(name, value));
  const auth = '-H "SERVICE-API-USER: $TALLY_USER" -H "SERVICE-API-KEY: $TALLY_KEY"';
  const flags = pairs.map((p) => ` \\\n  --data-urlencode "${p.replace(/["\\`]/g, '\\$&')}"`).join('');
  if (verb === 'get' || verb === 'delete') {
    const method = verb === 'delete' ? ' -X DELETE' : '';
    return pairs.length ? `curl -G${method} ${auth} "${url}"${flags}` : `curl${method} ${auth} "${url}"`;
  }
  return `curl -X ${verb.toUpperCase()} ${auth} "${url}"${flags}`;
}
