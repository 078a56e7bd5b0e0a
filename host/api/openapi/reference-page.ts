import { ERRORS } from '../../../core/kernel/errors';
import { curlExample } from './curl-example';
import { ERROR_STATUSES } from './error-responses';
import { exampleValue } from './example-values';
import { FieldRow, parameterRows, responseRows } from './parameter-rows';
import { SEARCH_SCRIPT } from './reference-search';
import { OpenApiDocument, Operation, Verb } from './types';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** Escaped text with `code spans` kept as code: descriptions are written in that style. */
const prose = (text: string) => escape(text).replace(/`([^`]+)`/g, '<code>$1</code>');

/**
 * Wide screens: the menu beside the text. Up to 760 px (a phone is 390): one column, the menu a
 * short scrolling box, tables as stacked cards, curl lines wrapped, long names broken, so nothing
 * makes the page wider than the screen.
 */
const STYLE = `
*{box-sizing:border-box}
body{font:15px/1.5 system-ui,sans-serif;margin:0;display:flex;color:#1d2430}
nav{width:270px;flex:none;height:100vh;overflow:auto;position:sticky;top:0;background:#f4f6f9;padding:1rem;font-size:14px}
nav ul{list-style:none;padding-left:.8rem;margin:.2rem 0 .8rem}
main{padding:1.5rem 2rem;max-width:980px;min-width:0;flex:1}
a{color:#1456b8;text-decoration:none}
code,pre{font-family:ui-monospace,monospace;font-size:13px;background:#f0f2f5;border-radius:3px}
code{padding:0 .2em;overflow-wrap:anywhere} pre{padding:.7rem;overflow-x:auto}
#search{width:100%;font:inherit;padding:.4rem .5rem;margin:.3rem 0;border:1px solid #b8c0cc;border-radius:4px}
#search-count{font-size:13px;color:#5b6472}
table{border-collapse:collapse;width:100%;margin:.5rem 0} th,td{border:1px solid #d8dde5;padding:.3rem .5rem;text-align:left;vertical-align:top}
td.name{white-space:nowrap} td.d1{padding-left:1.4rem} td.d2{padding-left:2.4rem} td.d3{padding-left:3.4rem}
.verb{display:inline-block;min-width:4.5em;text-align:center;font-weight:700;border-radius:3px;color:#fff;padding:0 .3em;margin-right:.4em}
.get{background:#2f7d32}.post{background:#1456b8}.put{background:#a15c00}.delete{background:#b3261e}
section.op{border-top:1px solid #d8dde5;padding-top:.5rem;margin-top:1.5rem}
h1,h2,h3,p,li,td{overflow-wrap:anywhere}
@media (max-width:760px){
body{display:block}
nav{width:auto;height:auto;max-height:45vh;position:static}
main{padding:1rem .8rem}
table,thead,tbody,tr,th,td{display:block;width:auto}
tr:first-child{display:none}
tr{border:1px solid #d8dde5;border-radius:4px;margin:.4rem 0;padding:.3rem .5rem}
td{border:0;padding:.1rem 0} td.name{white-space:normal} td.d1,td.d2,td.d3{padding-left:0}
td[data-label]::before{content:attr(data-label) ": ";color:#5b6472;font-size:13px}
td:empty{display:none}
pre{white-space:pre-wrap;overflow-wrap:anywhere}
}`;

interface ListedOperation {
  readonly path: string;
  readonly verb: Verb;
  readonly operation: Operation;
}

/**
 * A self-contained page (one inline search script, nothing fetched) for reading the API reference
 * in a browser: how to call, the errors, then every model and method with its verb, every
 * parameter and field it takes, every field it answers, and a curl line that works as written.
 */
export function renderReferencePage(document: OpenApiDocument): string {
  const operations = listOperations(document);
  const byModel = new Map<string, ListedOperation[]>();
  for (const op of operations) byModel.set(op.operation['x-tally-model'], [...(byModel.get(op.operation['x-tally-model']) ?? []), op]);
  const nav = [...byModel].map(
    ([model, ops]) =>
      `<li data-model="${escape(model)}"><a href="#model-${escape(model)}">${escape(model)}</a><ul>${ops.map((o) => `<li><a data-op="${escape(o.operation.operationId)}" href="#${escape(o.operation.operationId)}">${escape(o.operation['x-tally-method'])}</a></li>`).join('')}</ul></li>`,
  );
  const models = [...byModel].map(
    ([model, ops]) => `<section class="model" data-model="${escape(model)}"><h2 id="model-${escape(model)}">${escape(model)}</h2>${ops.map(renderOperation).join('\n')}</section>`,
  );
  const server = document.servers?.[0]?.url;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(document.info.title)} reference</title><style>${STYLE}</style></head>
<body><nav><strong>${escape(document.info.title)}</strong>
<input id="search" type="search" placeholder="Search methods and fields" aria-label="Search methods and fields" hidden><div id="search-count" aria-live="polite"></div>
<ul><li><a href="#calling">Calling the API</a></li><li><a href="#errors">Errors</a></li>${nav.join('')}</ul></nav>
<main><h1>${escape(document.info.title)} reference</h1>
<p>${operations.length} callable methods${server ? ` at <code>${escape(server)}</code>` : ''}. The same reference as OpenAPI 3.1: <a href="openapi.json">openapi.json</a>. The curl lines use <code>TALLY_URL</code>, <code>TALLY_USER</code> and <code>TALLY_KEY</code>, and records with id 1.</p>
<h2 id="calling">Calling the API</h2>${document.info.description
    .split('\n\n')
    .map((p) => `<p>${prose(p)}</p>`)
    .join('\n')}
<h2 id="errors">Errors</h2>${renderErrors()}
${models.join('\n')}
</main><script>${SEARCH_SCRIPT}</script></body></html>
`;
}

function listOperations(document: OpenApiDocument): ListedOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) => (Object.entries(item) as Array<[Verb, Operation]>).map(([verb, operation]) => ({ path, verb, operation })));
}

function renderOperation({ path, verb, operation }: ListedOperation): string {
  const params = parameterRows(operation);
  const answer = responseRows(operation);
  const statuses = Object.keys(operation.responses)
    .filter((s) => s !== '200')
    .join(', ');
  // The call as the docs write it (invoices/add, /api/invoices/add.json) is found too, not only its words.
  const call = `${operation['x-tally-model']}/${operation['x-tally-method']}`;
  const searchable = [call, `/api/${call}.json`, path, operation.description ?? '', ...params.map((r) => r.name), ...answer.map((r) => r.name)].join(' ').toLowerCase();
  return `<section class="op" id="${escape(operation.operationId)}" data-of="${escape(operation['x-tally-model'])}" data-search="${escape(searchable)}">
<h3><span class="verb ${verb}">${verb.toUpperCase()}</span><code>${escape(path)}</code></h3>
${operation.description ? `<p>${prose(operation.description)}</p>` : ''}${params.length ? fieldTable('Parameter', params, true) : '<p>No parameters.</p>'}
${answer.length ? `<p>Answers <code>200</code> with <code>{"response": ...}</code>:</p>${fieldTable('Field', answer, false)}${exampleAnswer(operation)}` : '<p>Answers <code>200</code> with <code>{"response": ...}</code>.</p>'}
<p>Errors: ${statuses}.</p>
<pre class="curl">${escape(curlExample(verb, path, operation))}</pre></section>`;
}

/** A JSON answer of the declared shape (example values, not real data), folded away until opened. */
function exampleAnswer(operation: Operation): string {
  const response = (operation.responses['200'] as { content?: Record<string, { schema: Record<string, unknown> }> }).content?.['application/json']?.schema;
  if (!response) return '';
  return `<details><summary>Example answer</summary><pre>${escape(JSON.stringify(exampleValue(response), null, 2))}</pre></details>`;
}

function fieldTable(heading: string, rows: FieldRow[], input: boolean): string {
  const head = `<tr><th>${heading}</th><th>Type</th>${input ? '<th>Required</th><th>Default</th>' : ''}<th>Description</th></tr>`;
  const body = rows.map((r) => {
    const cells = [
      `<td class="name d${Math.min(r.depth, 3)}"><code>${escape(r.name)}</code></td>`,
      `<td data-label="Type">${escape(r.type)}</td>`,
      input ? `<td data-label="Required">${r.required ? 'yes' : 'no'}</td>` : '',
      input ? `<td data-label="Default">${'default' in r ? `<code>${escape(JSON.stringify(r.default))}</code>` : ''}</td>` : '',
      `<td>${prose(r.description)}</td>`,
    ];
    return `<tr>${cells.join('')}</tr>`;
  });
  return `<table>${head}${body.join('')}</table>`;
}

function renderErrors(): string {
  const rows = ERROR_STATUSES.flatMap((e) => [...new Set(e.codes.map((c) => ERRORS[c].message))].map((message) => `<tr><td>${e.status}</td><td>${escape(message)}</td><td>${prose(e.when)}</td></tr>`));
  return `<p>An error body is <code>{"message": ...}</code> in the requested format (JSON when the format could not be read), plus <code>errors</code> on a 400.</p>
<table><tr><th>Status</th><th>message</th><th>When</th></tr>${rows.join('')}</table>`;
}
