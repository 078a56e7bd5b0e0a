import { CallableSpec } from '../../core/kernel/callable';
import { Field } from '../../core/kernel/shape';

export const API_FORM_USAGE = `Usage: tally api/<model>/<method>.<format> [options]

Calls one API method in-process, against the database DATABASE_URL names, with the same
credentials check, verb rules, errors and formats as over HTTP. Prints the body; the database
used, and where the credentials came from, are said on standard error.

Options:
  -u, -user, --user <user>        the API user (default: the TALLY_USER environment variable)
  -k, -key, --key <key>           the API key (default: the TALLY_KEY environment variable)
  -m, -method, --method <verb>    GET (default), POST, PUT or DELETE
  -p, -params, --params <query>   parameters, URL-encoded: 'user_id=1' or 'vars[username]=ada&vars[lines][0][amount]=10.00'
  -h, --help                      this help; after a method's path, also its parameters

Exit status: 0 on success, 1 on an API error, 2 on a usage error.
Example: tally api/users/get.json -u "$TALLY_USER" -k "$TALLY_KEY" -m GET -p 'user_id=1'`;

/** A method's verb, description and parameters (with the fields of its vars), for `--help`. */
export function describeCallable(model: string, spec: CallableSpec): string {
  const lines = [`${model}/${spec.method}${spec.verb ? ` (${spec.verb})` : ''}${spec.description ? `: ${spec.description}` : ''}`];
  if (!spec.params.length) lines.push('  No parameters.');
  for (const p of spec.params) {
    const when = p.optional ? (p.defaultKnown ? `optional, default ${JSON.stringify(p.default)}` : 'optional') : 'required';
    lines.push(`  ${p.name}  ${p.kind}${p.format ? ` (${p.format})` : ''}, ${when}${p.description ? `. ${p.description}` : ''}`);
    for (const f of p.fields ?? []) lines.push(...fieldLines(`${p.name}[${f.name}]`, f, '    '));
  }
  return lines.join('\n');
}

function fieldLines(name: string, field: Field, indent: string): string[] {
  const kind = field.kind === 'list' && field.items ? `list of ${field.items.kind}` : field.kind;
  const extra = [field.format, field.enum ? `one of ${field.enum.join(', ')}` : undefined].filter(Boolean).join('; ');
  const lines = [`${indent}${name}  ${kind}${extra ? ` (${extra})` : ''}, ${field.required ? 'required' : 'optional'}${field.description ? `. ${field.description}` : ''}`];
  const nested = field.kind === 'list' ? field.items?.fields : field.fields;
  const prefix = field.kind === 'list' ? `${name}[0]` : name;
  for (const f of nested ?? []) lines.push(...fieldLines(`${prefix}[${f.name}]`, f, `${indent}  `));
  return lines;
}
