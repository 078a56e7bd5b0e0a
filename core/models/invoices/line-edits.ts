import { FieldErrors } from '../../kernel/errors';
import { is } from '../../kernel/input-rules';
import { TallyError } from '../../kernel/tally-error';
import { truthy, wholeNumber } from '../../billing/values';
import { isTruthText, MESSAGES } from '../../billing/invoice-rules';
import { lineServiceId } from '../../billing/line-services';
import { LineInput, lineList, parseAmount, parseQuantity } from '../../billing/lines';

/**
 * Merges `vars[lines]` of invoices/edit into the stored lines, as the reference reads them: an
 * entry with the `id` of a stored line changes the fields it gives (a blank description and amount
 * remove the line), an entry without an id adds a line, and stored lines not named stay. A given
 * service_id must be among `clientServices` (the invoice client's, ownedServiceIds). Every problem
 * is reported at once, keyed lines[i][field].
 */
export function mergeLineEdits(storedLines: readonly LineInput[], given: unknown, clientServices: ReadonlySet<number>): LineInput[] {
  const errors: FieldErrors = {};
  const fail = (i: number, field: string, code: string, message: string) => ((errors[`lines[${i}][${field}]`] ??= {})[code] = message);
  const result = new Map<number | string, LineInput>(storedLines.map((l) => [l.id!, l]));
  lineList(given).forEach((entry, i) => {
    const hasId = entry.id !== undefined && entry.id !== '';
    const id = hasId ? wholeNumber(entry.id) : null;
    const current = id === null ? undefined : result.get(id);
    if (hasId && !current) return void fail(i, 'id', 'exists', MESSAGES.lineId);
    if (current && !is.present(entry.description) && !is.present(entry.amount)) return void result.delete(id!);
    const description = entry.description !== undefined ? String(entry.description).trim() : (current?.description ?? '');
    if (!description) fail(i, 'description', 'empty', MESSAGES.description);
    const qty = entry.qty !== undefined || !current ? parseQuantity(entry.qty) : current.qty;
    if (!qty?.greaterThan(0)) fail(i, 'qty', 'minimum', MESSAGES.qty);
    const amount = entry.amount !== undefined || !current ? parseAmount(entry.amount) : current.amount;
    if (amount === null) fail(i, 'amount', 'format', MESSAGES.amount);
    if (entry.tax !== undefined && !isTruthText(entry.tax)) fail(i, 'tax', 'format', MESSAGES.tax);
    const serviceId = entry.service_id !== undefined ? lineServiceId(entry.service_id) : (current?.serviceId ?? null);
    if (is.present(entry.service_id) && (serviceId === null || !clientServices.has(serviceId))) fail(i, 'service_id', 'exists', MESSAGES.service);
    const line: LineInput = { id: current?.id, description, qty: qty!, amount: amount!, taxable: entry.tax !== undefined ? truthy(entry.tax) : (current?.taxable ?? false), serviceId };
    result.set(current ? current.id! : `new${i}`, line);
  });
  if (Object.keys(errors).length) throw TallyError.invalid(errors);
  return [...result.values()];
}
