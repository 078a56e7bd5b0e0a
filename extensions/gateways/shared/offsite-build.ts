import { shape, TallyError } from '../../../host/extensions/kit';

/** What a non-merchant gateway's `buildProcess` takes (docs/extensions.md, writing a gateway), as core's gateway_payments/startOffsite sends it. */
export const OFFSITE_BUILD_VARS = shape.inputs({
  client_id: shape.int({ required: true, example: 1 }),
  amount: shape.money({ required: true, example: '10.00' }),
  currency: shape.string({ required: true, format: 'currency', example: 'USD' }),
  return_url: shape.string({ required: true, description: 'Where the processor sends the payer back (https://...).', example: 'https://billing.example.com/paid' }),
  contact: shape.record({ first_name: shape.string(), last_name: shape.string(), email: shape.string() }, { description: "The payer, to prefill the processor's page." }),
  invoices: shape.listOf(shape.record({ invoice_id: shape.int(), amount: shape.money() }), { description: 'The invoices it pays, each with an optional amount.' }),
});

/** vars[return_url] when it is an https:// URL a processor will take (at most 2000 characters), else the 400 naming it. */
export function returnUrlOf(vars: Record<string, unknown>): string {
  const back = String(vars.return_url);
  if (!/^https:\/\/[^\s]+$/.test(back) || back.length > 2000) throw TallyError.invalid({ return_url: { format: 'The return URL must be an https:// URL.' } });
  return back;
}
