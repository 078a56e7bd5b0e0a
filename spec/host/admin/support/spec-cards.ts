import { ExtensionsDir, manifest } from '../../extensions/fixtures';

/**
 * A merchant gateway standing in for a card processor: it stores a card as a token naming its
 * last four digits, approves a charge (recording the payment on the invoices through
 * transactions/add) unless the card ends in 0002 (declined: "Insufficient funds."), and refunds.
 */
const SPEC_CARDS = `
class Tokens {
  constructor(ctx) { this.ctx = ctx; }
  store(vars) {
    const last4 = String(vars.card_number).slice(-4);
    return { reference_id: 'tok_' + vars.client_id + '_' + last4, last4, type: 'visa', expiration: String(vars.exp_year) + String(vars.exp_month).padStart(2, '0') };
  }
  async charge(vars) {
    if (String(vars.reference_id).endsWith('0002')) return { status: 'declined', message: 'Insufficient funds.', transaction_id: null };
    const id = await this.ctx.models.transactions.add({ vars: { client_id: vars.client_id, amount: vars.amount, currency: vars.currency, type: 'cc', gateway: 'spec_cards', reference: 'ch_' + vars.reference_id + '_' + vars.amount, invoices: vars.invoices } });
    return { status: 'approved', message: 'Approved.', transaction_id: id };
  }
  refund(vars) { return { refund_id: 're_' + vars.transaction_id, status: 'succeeded' }; }
  remove() { return null; }
}
const vars = { params: [{ name: 'vars', kind: 'object' }] };
Tokens.callable = { store: { verb: 'POST', ...vars }, charge: { verb: 'POST', ...vars }, refund: { verb: 'POST', ...vars }, remove: { verb: 'POST', params: [{ name: 'reference_id', kind: 'string' }] } };
exports.models = { tokens: Tokens };
`;

/** An extensions directory holding the spec_cards merchant gateway (install it per company with gateway_manager/add). */
export function specCardsExtensions(): ExtensionsDir {
  return new ExtensionsDir().add('gateways/merchant/spec_cards', manifest('Spec cards', { currencies: ['USD', 'EUR'], uses: ['transactions.add'] }), SPEC_CARDS);
}
