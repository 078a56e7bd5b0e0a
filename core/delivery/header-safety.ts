/**
 * What may go into a mail header. A line break in a name, subject or address would let its author
 * add headers (Bcc: to anyone) or a body of their own: such values are refused where they enter,
 * never cleaned, so what was asked for is what is sent or nothing is.
 */
const LINE_BREAK = /[\r\n\u0085\u2028\u2029]/;
const CONTROL = /[\u0000-\u001f\u007f]/;

/** An address as people write it (local@domain), short enough for SMTP (RFC 5321: 254). */
const ADDRESS = /^[^\s@<>()",;:\\[\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

export function hasLineBreak(value: string): boolean {
  return LINE_BREAK.test(value);
}

/** A header's text (a subject, a display name): no line breaks nor other control characters. */
export function isHeaderText(value: string): boolean {
  return !hasLineBreak(value) && !CONTROL.test(value);
}

export function isMailAddress(value: string): boolean {
  return value.length <= 254 && !CONTROL.test(value) && ADDRESS.test(value);
}
