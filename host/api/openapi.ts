import { DependencyContainer } from 'tsyringe';
import { allModels, resolveModelMethod } from '../../core/kernel/model-container';
import { components, SECURITY } from './openapi/components';
import { operationForCallable, pathFor } from './openapi/operation-for-callable';
import { OpenApiDocument } from './openapi/types';

export type { OpenApiDocument } from './openapi/types';

export interface OpenApiOptions {
  /** Where the installation is served, e.g. `https://billing.example.com`; omitted, paths are relative to the document. */
  serverUrl?: string;
}

const DESCRIPTION = [
  "Every callable method of every model of this installation, core and extensions alike, generated from the methods' own declarations.",
  'Call `{base_url}/api/<model>/<method>.<format>` (also under `/index.php/api/`). GET and DELETE read only the query string; POST and PUT read only the body.',
  'Nested values use bracket notation (`vars[lines][0][amount]=10.00`); lists use explicit indexes.',
  'Credentials give full administrative access: send them as the SERVICE-API-USER and SERVICE-API-KEY headers (recommended) or HTTP Basic, over HTTPS only.',
  "Timestamps in: `YYYY-MM-DD hh:mm:ss ±hh:mm`, `YYYY-MM-DD hh:mm:ss UTC` or `YYYY-MM-DDThh:mm:ssZ` (without a zone, the company's timezone applies). Timestamps out: UTC `YYYY-MM-DD hh:mm:ss`.",
].join('\n\n');

/**
 * The OpenAPI 3.1 document of everything callable, read from the models registered in the container: a method that
 * resolves as callable is documented, whatever model it belongs to. Models and methods are sorted,
 * so the document only changes when what is callable changes.
 */
export function buildOpenApiDocument(container: DependencyContainer, options: OpenApiOptions = {}): OpenApiDocument {
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info: { title: 'Tally API', version: '6', description: DESCRIPTION },
    security: SECURITY,
    tags: [],
    paths: {},
    components: components(),
  };
  if (options.serverUrl) document.servers = [{ url: options.serverUrl.replace(/\/+$/, '') }];
  const entries = allModels(container).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    const methods = [...entry.callables.keys()].filter((method) => resolveModelMethod(container, entry.name, method).found).sort();
    if (!methods.length) continue;
    document.tags.push({ name: entry.name });
    for (const method of methods) {
      const { verb, operation } = operationForCallable(entry.name, entry.callables.get(method)!);
      document.paths[pathFor(entry.name, method)] = { [verb]: operation };
    }
  }
  return document;
}

/** Every `<model>/<method>` the document lists, for checks and summaries. */
export function documentedCalls(document: OpenApiDocument): string[] {
  return Object.values(document.paths).flatMap((item) => Object.values(item).map((op) => `${op!['x-tally-model']}/${op!['x-tally-method']}`));
}
