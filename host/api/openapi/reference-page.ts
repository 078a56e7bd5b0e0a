import { ERROR_STATUSES } from './error-responses';
import { curlExample } from './curl-example';
import { parameterRows } from './parameter-rows';
import { OpenApiDocument, Operation, Verb } from './types';
import { ERRORS } from '../../../core/kernel/errors';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** Escaped text with `code spans` kept as code: descriptions are written in that style. */
const prose = (text: string) => escape(text).replace(/`([^`]+)`/g, '<code>$1</code>');

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;margin:0;display:flex;color:#1d2430}
nav{width:260px;flex:none;height:100vh;overflow:auto;position:sticky;top:0;background:#f4f6f9;padding:1rem;box-sizing:border-box;font-size:14px}
nav ul{list-style:none;padding-left:.8rem;margin:.2rem 0 .8rem}
main{padding:1.5rem 2rem;max-width:960px;min-width:0;box-sizing:border-box}
a{color:#1456b8;text-decoration:none}
code,pre{font-family:ui-monospace,monospace;font-size:13px;background:#f0f2f5;border-radius:3px}
code{padding:0 .2em} pre{padding:.7rem;overflow:auto}
table{border-collapse:collapse;width:100%;margin:.5rem 0} th,td{border:1px solid #d8dde5;padding:.3rem .5rem;text-align:left;vertical-align:top}
.verb{display:inline-block;min-width:4.5em;text-align:center;font-weight:700;border-radius:3px;color:#fff;padding:0 .3em;margin-right:.4em}
.get{background:#2f7d32}.post{background:#1456b8}.put{background:#a15c00}.delete{background:#b3261e}
section.op{border-top:1px solid #d8dde5;padding-top:.5rem;margin-top:1.5rem}`;

/**
 * A self-contained page (no scripts, nothing fetched) for reading the API reference in a browser:
 * how to call, the errors, then every model and method with its verb, parameters and a curl line.
 */
export function renderReferencePage(document: OpenApiDocument): string {
  const operations = listOperations(document);
  const byModel = new Map<string, typeof operations>();
  for (const op of operations) byModel.set(op.operation['x-tally-model'], [...(byModel.get(op.operation['x-tally-model']) ?? []), op]);
  const nav = [...byModel].map(([model, ops]) => `<li><a href="#model-${escape(model)}">${escape(model)}</a><ul>${ops.map((o) => `<li><a href="#${escape(o.operation.operationId)}">${escape(o.operation['x-tally-method'])}</a></li>`).join('')}</ul></li>`);
  const models = [...byModel].map(([model, ops]) => `<h2 id="model-${escape(model)}">${escape(model)}</h2>${ops.map(renderOperation).join('\n')}`);
  const server = document.servers?.[0]?.url;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(document.info.title)} reference</title><style>${STYLE}</style></head>
<body><nav><strong>${escape(document.info.title)}</strong><ul><li><a href="#calling">Calling the API</a></li><li><a href="#errors">Errors</a></li>${nav.join('')}</ul></nav>
<main><h1>${escape(document.info.title)} reference</h1>
<p>${operations.length} callable methods${server ? ` at <code>${escape(server)}</code>` : ''}. The same reference as OpenAPI 3.1: <a href="openapi.json">openapi.json</a>.</p>
<h2 id="calling">Calling the API</h2>${document.info.description.split('\n\n').map((p) => `<p>${prose(p)}</p>`).join('\n')}
<h2 id="errors">Errors</h2>${renderErrors()}
${models.join('\n')}
</main></body></html>
`;
}

interface ListedOperation {
  readonly path: string;
  readonly verb: Verb;
  readonly operation: Operation;
}

function listOperations(document: OpenApiDocument): ListedOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    (Object.entries(item) as Array<[Verb, Operation]>).map(([verb, operation]) => ({ path, verb, operation })),
  );
}

function renderOperation({ path, verb, operation }: ListedOperation): string {
  const rows = parameterRows(operation);
  const table = rows.length
    ? `<table><tr><th>Parameter</th><th>In</th><th>Type</th><th>Required</th><th>Default</th><th>Description</th></tr>${rows
        .map((r) => `<tr><td><code>${escape(r.name)}</code></td><td>${r.where}</td><td>${escape(r.type)}</td><td>${r.required ? 'yes' : 'no'}</td><td>${'default' in r ? `<code>${escape(JSON.stringify(r.default))}</code>` : ''}</td><td>${prose(r.description)}</td></tr>`)
        .join('')}</table>`
    : '<p>No parameters.</p>';
  const statuses = Object.keys(operation.responses).filter((s) => s !== '200').join(', ');
  return `<section class="op" id="${escape(operation.operationId)}">
<h3><span class="verb ${verb}">${verb.toUpperCase()}</span><code>${escape(path)}</code></h3>
${operation.description ? `<p>${prose(operation.description)}</p>` : ''}${table}
<p>Answers <code>200</code> with <code>{"response": ...}</code>; errors: ${statuses}.</p>
<pre>${escape(curlExample(verb, path, rows))}</pre></section>`;
}

function renderErrors(): string {
  const rows = ERROR_STATUSES.flatMap((e) => [...new Set(e.codes.map((c) => ERRORS[c].message))].map((message) => `<tr><td>${e.status}</td><td>${escape(message)}</td><td>${prose(e.when)}</td></tr>`));
  return `<p>An error body is <code>{"message": ...}</code> in the requested format (JSON when the format could not be read), plus <code>errors</code> on a 400.</p>
<table><tr><th>Status</th><th>message</th><th>When</th></tr>${rows.join('')}</table>`;
}
