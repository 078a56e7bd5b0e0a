import { inputs, int, listOf, record, string, timestamp } from '../kernel/shape';
import { DELIVERY_METHODS } from '../billing/invoice-rules';

/** The fields of invoices/addDelivery and the delivery records it keeps, as the reference names them. */

export const DELIVERY_ADD = inputs({ method: string({ required: true, enum: DELIVERY_METHODS }) });

const DELIVERY_FIELDS = {
  id: int({ description: 'The delivery record (invoices/delivered and deleteDelivery name it).' }),
  invoice_id: int(),
  method: string({ enum: DELIVERY_METHODS }),
  date_sent: timestamp({ nullable: true, description: 'When it was delivered (email: when the mail server took it; paper: when marked printed); null while it waits.' }),
};

export const DELIVERY = record(DELIVERY_FIELDS);

export const DELIVERY_LIST = listOf(
  record({
    ...DELIVERY_FIELDS,
    client_id: int(),
    invoice_id_code: string({ description: "The invoice's display number (DRAFT-<id> for a draft)." }),
    invoice_status: string({ enum: ['active', 'draft', 'proforma', 'void'] }),
  }),
);
