import type { Format } from './format';
import { json } from './json';
import { php } from './php';
import { xml } from './xml';

export type { Format } from './format';
export { json, php, xml };

export const formats: readonly Format[] = [json, xml, php];

/** Used when a request names no format. */
export const defaultFormat: Format = json;

/** The format for a request's extension; extensions are matched case-insensitively (`.JSON`, `.Xml`). */
export function findFormat(token: string): Format | undefined {
  const wanted = token.toLowerCase();
  return formats.find((format) => format.token === wanted);
}
