import { formats } from '../formats';
import { errorResponses, mediaType } from './error-responses';
import { JsonSchema, MediaType, OpenApiDocument, ResponseObject } from './types';

/** Header authentication needs both headers: one requirement naming both schemes. */
export const SECURITY: OpenApiDocument['security'] = [{ apiUser: [], apiKey: [] }, { basic: [] }];

/** What every operation shares: credentials, the format segment, the envelopes and the errors. */
export function components(): OpenApiDocument['components'] {
  return {
    securitySchemes: {
      apiUser: { type: 'apiKey', in: 'header', name: 'SERVICE-API-USER', description: 'The API user (sent with SERVICE-API-KEY). Recommended: survives FastCGI and proxies.' },
      apiKey: { type: 'apiKey', in: 'header', name: 'SERVICE-API-KEY', description: 'The API key (sent with SERVICE-API-USER).' },
      basic: { type: 'http', scheme: 'basic', description: 'HTTP Basic: user name = API user, password = API key.' },
    },
    parameters: {
      format: {
        name: 'format',
        in: 'path',
        required: true,
        description: 'The response format: json (application/json), xml (application/xml) or php (PHP serialization, text/plain). Case-insensitive.',
        schema: { type: 'string', enum: formats.map((f) => f.token), default: 'json' },
      },
    },
    schemas: {
      SuccessEnvelope: {
        type: 'object',
        required: ['response'],
        properties: {
          response: {
            description: 'What the method answers. Integers are numbers, money a decimal string, timestamps UTC `YYYY-MM-DD hh:mm:ss`, a record that does not exist null.',
          },
        },
      },
      ErrorBody: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
      FieldErrors: {
        type: 'object',
        description: 'Parameter name (nested fields as `lines[0][description]`) → error code (`empty`, `exists`, `format`, `length`, `valid`, ...) → message.',
        additionalProperties: { type: 'object', additionalProperties: { type: 'string' } },
      },
      BadRequestBody: {
        type: 'object',
        required: ['message', 'errors'],
        properties: { message: { type: 'string', const: 'The request cannot be fulfilled due to bad syntax.' }, errors: { $ref: '#/components/schemas/FieldErrors' } },
      },
      InternalErrorBody: {
        type: 'object',
        required: ['message'],
        properties: {
          message: { type: 'string', const: 'An unexpected error occured.' },
          response: { type: 'string', description: 'Only when a default value could not be retrieved: the internal error text.' },
        },
      },
    },
    responses: { Success: successResponse(), ...errorResponses() },
  };
}

/**
 * The 200 answer in every format. With the method's declared shape, the JSON envelope's `response`
 * carries it as a schema (what generated clients type); without one, the shared envelope.
 */
export function successResponse(response?: JsonSchema): ResponseObject {
  const content: Record<string, MediaType> = {};
  const example = { response: { id: 1, username: 'admin', date_added: '2024-01-02 03:04:05' } };
  for (const format of formats) {
    const envelope: JsonSchema = response ? { type: 'object', required: ['response'], properties: { response } } : { $ref: '#/components/schemas/SuccessEnvelope' };
    content[mediaType(format.contentType)] =
      format.token === 'json'
        ? { schema: envelope, ...(response ? {} : { example }) }
        : {
            schema: { type: 'string', description: `The same envelope, ${format.token === 'xml' ? 'as XML' : "in PHP's serialization"}.` },
            ...(response ? {} : { example: format.render('users', example) }),
          };
  }
  return { description: 'The call succeeded: `{"response": ...}` in the requested format.', content };
}
