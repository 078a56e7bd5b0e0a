export { TallyClient, FORMATS, VERBS } from './client';
export type { TallyClientOptions, CallOptions, Format, Verb } from './client';
export { TallyResult } from './result';
export type { FieldErrors, ErrorBody } from './result';
export { SdkError } from './sdk-error';
export type { SdkErrorCode } from './sdk-error';
export { encodeParams } from './encode-params';
export type { Params, ParamValue } from './encode-params';
export type * from './records';
