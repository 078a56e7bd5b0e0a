/**
 * The part of OpenAPI 3.1 that Tally's document uses, typed so the builder and the reference page
 * agree on its shape. Schemas are JSON Schema 2020-12, kept loose on purpose.
 */
export type JsonSchema = Record<string, unknown> | boolean;

export interface Reference {
  $ref: string;
}

export interface ParameterObject {
  name: string;
  in: 'query' | 'path' | 'header';
  required: boolean;
  description?: string;
  style?: 'form' | 'simple' | 'deepObject';
  explode?: boolean;
  schema: JsonSchema;
}

export interface MediaType {
  schema: JsonSchema;
  encoding?: Record<string, { style: 'deepObject' | 'form'; explode: boolean }>;
  example?: unknown;
  examples?: Record<string, { summary?: string; value: unknown }>;
}

export interface ResponseObject {
  description: string;
  content?: Record<string, MediaType>;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
}

export interface Operation {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  parameters: Array<ParameterObject | Reference>;
  requestBody?: { required: boolean; description?: string; content: Record<string, MediaType> };
  responses: Record<string, ResponseObject | Reference>;
  'x-tally-model': string;
  'x-tally-method': string;
}

export type Verb = 'get' | 'post' | 'put' | 'delete';

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers?: Array<{ url: string; description?: string }>;
  security: Array<Record<string, string[]>>;
  tags: Array<{ name: string; description?: string }>;
  paths: Record<string, Partial<Record<Verb, Operation>>>;
  components: {
    securitySchemes: Record<string, Record<string, unknown>>;
    parameters: Record<string, ParameterObject>;
    schemas: Record<string, JsonSchema>;
    responses: Record<string, ResponseObject>;
  };
}
