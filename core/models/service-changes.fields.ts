import { int, listOf, record, string, timestamp } from '../kernel/shape';

/** The fields of service_changes/* (see `@callable({ returns })` in service-changes.ts). */

export const CHANGE_STATUS_VALUES = ['pending', 'completed', 'canceled'];

const OPTION_CHOICE = record({
  option_id: int(),
  value_id: int(),
  value: string({ nullable: true, description: "A text option's text." }),
  qty: int(),
});

export const SERVICE_CHANGE = record({
  id: int(),
  service_id: int(),
  invoice_id: int({ description: 'The invoice for the prorated difference: the change is applied once it is paid, cancelled if it is voided.' }),
  status: string({ enum: CHANGE_STATUS_VALUES }),
  pricing_id: int({ description: 'The pricing the service moves to (its own when only its options change).' }),
  date_renews: timestamp({ nullable: true, description: 'The renew date the service takes with the change.' }),
  options: listOf(OPTION_CHOICE, { nullable: true, description: 'The options the service takes (as services/getOptions names them); null: it keeps its own.' }),
  date_added: timestamp(),
  date_status: timestamp({ description: 'When it took its status.' }),
});

export const SERVICE_CHANGES = listOf(SERVICE_CHANGE);
