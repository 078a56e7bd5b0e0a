/** The spellings a form, a query string or a PHP client sends for a ticked box (compared in lower case). */
const TRUE_TEXT = new Set(['1', 'true', 'on', 'yes']);
/** And for an unticked one; an empty field is unticked. */
const FALSE_TEXT = new Set(['0', 'false', 'off', 'no', '']);

/** true or false for one of those spellings, in any case (not trimmed: callers that allow spaces trim); undefined for any other text. */
export function truthOf(text: string): boolean | undefined {
  const lower = text.toLowerCase();
  return TRUE_TEXT.has(lower) ? true : FALSE_TEXT.has(lower) ? false : undefined;
}

/** A boolean, or text (trimmed) spelling true or false; undefined for anything else. */
export function truthValue(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  return truthOf(String(value ?? '').trim());
}

/** true only for a true boolean or a spelling of true; anything else (unknown text included) is false. */
export function truthy(value: unknown): boolean {
  return truthValue(value) === true;
}
