import { CallableSpec } from '../../../core/kernel/callable';
import { successResponse } from './components';
import { errorStatusesFor } from './error-responses';
import { schemaForShape } from './schema-for-shape';
import { describeParameter, isBracketed, schemaForParameter } from './schema-for-parameter';
import { MediaType, Operation, ParameterObject, Verb } from './types';

/** The verb a client should use: the method's own, else POST when it takes sets or lists (they belong in a body), else GET. */
export function verbFor(spec: CallableSpec): Verb {
  if (spec.verb) return spec.verb.toLowerCase() as Verb;
  return spec.params.some(isBracketed) ? 'post' : 'get';
}

/** `/api/users/get.{format}` */
export function pathFor(model: string, method: string): string {
  return `/api/${model}/${method}.{format}`;
}

/**
 * One operation: GET and DELETE take their parameters in the query string, POST and PUT in a form
 * body (bracket names as deepObject), as the server reads them.
 */
export function operationForCallable(model: string, spec: CallableSpec): { verb: Verb; operation: Operation } {
  const verb = verbFor(spec);
  const inQuery = verb === 'get' || verb === 'delete';
  const parameters: Operation['parameters'] = [{ $ref: '#/components/parameters/format' }];
  const operation: Operation = {
    operationId: `${model}.${spec.method}`,
    tags: [model],
    summary: summaryOf(model, spec),
    description: spec.description,
    parameters,
    responses: { '200': spec.returns ? successResponse(schemaForShape(spec.returns, 'out')) : { $ref: '#/components/responses/Success' } },
    'x-tally-model': model,
    'x-tally-method': spec.method,
  };
  if (!spec.description) delete operation.description;
  if (inQuery) parameters.push(...spec.params.map(queryParameter));
  else if (spec.params.length) operation.requestBody = requestBody(spec);
  for (const e of errorStatusesFor(verb)) operation.responses[String(e.status)] = { $ref: `#/components/responses/${e.name}` };
  return { verb, operation };
}

function queryParameter(p: CallableSpec['params'][number]): ParameterObject {
  const parameter: ParameterObject = { name: p.name, in: 'query', required: !p.optional, schema: schemaForParameter(p) };
  const description = describeParameter(p);
  if (description) parameter.description = description;
  if (isBracketed(p)) Object.assign(parameter, { style: 'deepObject', explode: true });
  return parameter;
}

function requestBody(spec: CallableSpec): NonNullable<Operation['requestBody']> {
  const properties: Record<string, unknown> = {};
  const encoding: NonNullable<MediaType['encoding']> = {};
  for (const p of spec.params) {
    const schema = schemaForParameter(p);
    const description = describeParameter(p);
    properties[p.name] = description && typeof schema === 'object' ? { ...schema, description } : schema;
    if (isBracketed(p)) encoding[p.name] = { style: 'deepObject', explode: true };
  }
  const required = spec.params.filter((p) => !p.optional).map((p) => p.name);
  const schema = { type: 'object', properties, additionalProperties: false, ...(required.length ? { required } : {}) };
  const form: MediaType = Object.keys(encoding).length ? { schema, encoding } : { schema };
  return {
    required: required.length > 0,
    description: "Form fields in bracket notation (`vars[lines][0][amount]=10.00`), as PHP's http_build_query writes them; multipart and JSON bodies are read the same way.",
    content: { 'application/x-www-form-urlencoded': form, 'multipart/form-data': form, 'application/json': { schema } },
  };
}

function summaryOf(model: string, spec: CallableSpec): string {
  const first = spec.description?.match(/^.*?[.!?](?=\s|$)/)?.[0] ?? spec.description;
  return first && first.length <= 120 ? first : `${model}/${spec.method}`;
}
