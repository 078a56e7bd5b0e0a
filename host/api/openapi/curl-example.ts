import { ParameterRow } from './parameter-rows';

const SAMPLE: Record<string, string> = { integer: '1', string: 'text', boolean: '1', any: 'value' };

/** `name=value` pairs a reader can start from: required parameters, with bracket names for sets and lists. */
function samplePairs(rows: ParameterRow[]): string[] {
  return rows
    .filter((r) => r.required)
    .map((r) => {
      if (r.type === 'object') return `${r.name}[field]=value`;
      if (r.type === 'array') return `${r.name}[0]=value`;
      return `${r.name}=${SAMPLE[r.type] ?? 'value'}`;
    });
}

/** A curl command for the operation, with header auth and its parameters where the server reads them. */
export function curlExample(verb: string, path: string, rows: ParameterRow[]): string {
  const url = `$TALLY_URL${path.replace('{format}', 'json')}`;
  const pairs = samplePairs(rows);
  const auth = '-H "SERVICE-API-USER: $TALLY_USER" -H "SERVICE-API-KEY: $TALLY_KEY"';
  if (verb === 'get' || verb === 'delete') {
    const method = verb === 'delete' ? ' -X DELETE' : '';
    const flags = pairs.map((p) => ` \\\n  --data-urlencode "${p}"`).join('');
    return pairs.length ? `curl -G${method} ${auth} "${url}"${flags}` : `curl${method} ${auth} "${url}"`;
  }
  const flags = pairs.map((p) => ` \\\n  --data-urlencode "${p}"`).join('');
  return `curl -X ${verb.toUpperCase()} ${auth} "${url}"${flags}`;
}
