import { ExtensionContext, TallyError } from '../../../../host/extensions/kit';
import { stripeCall, stripeRefusal, stripeRequest } from '../../shared/stripe/stripe-api';
import { accountType, expirationOf } from './card-brands';
import { GATEWAY } from './gateway-name';
import { stripeId } from '../../shared/stripe/stripe-ids';

const TABLE = 'stripe_cards_payment_methods';

/** The client's saved card of this PaymentMethod id, still active; the 400 callers answer when it is not. */
export async function savedCard(ctx: ExtensionContext, clientId: number, paymentMethod: unknown) {
  const id = typeof paymentMethod === 'string' ? paymentMethod : '';
  const row = await ctx.db.selectFrom(TABLE).selectAll().where('payment_method', '=', id).where('status', '=', 'active').executeTakeFirst();
  // Another client's card (or another company's: the host scopes every query to the caller's) is not there.
  if (!row || Number(row.client_id) !== clientId) throw TallyError.invalid({ reference_id: { exists: 'No stored card with this reference for this client.' } });
  return row;
}

/** The client whose saved cards live under this Stripe Customer, or null when it is none of this company's clients. */
export async function clientOfCustomer(ctx: ExtensionContext, customer: unknown): Promise<number | null> {
  if (typeof customer !== 'string' || !customer) return null;
  const row = await ctx.db.selectFrom(TABLE).select('client_id').where('customer', '=', customer).executeTakeFirst();
  return row ? Number(row.client_id) : null;
}

/** The Customer a client's saved cards are attached to, or undefined before the first. */
export async function customerOf(ctx: ExtensionContext, clientId: number): Promise<string | undefined> {
  const row = await ctx.db.selectFrom(TABLE).select('customer').where('client_id', '=', clientId).executeTakeFirst();
  return row?.customer;
}

/**
 * Saves a card Stripe tokenised in the payer's browser: its PaymentMethod is attached to the
 * client's Customer (created with the first card), so it can be charged off-session later. Only the
 * PaymentMethod id, the brand, the last four digits and the expiry are kept.
 */
export async function saveCard(ctx: ExtensionContext, clientId: number, token: unknown) {
  const paymentMethod = stripeId(token, 'pm', 'token');
  // A card already saved (another client's, read off a page or a log) is never attached again: a new card form tokenises it anew.
  const taken = await ctx.db.selectFrom(TABLE).select('id').where('payment_method', '=', paymentMethod).executeTakeFirst();
  if (taken) throw TallyError.invalid({ token: { exists: 'This card token was already used: enter the card again to save it.' } });
  const customer = (await customerOf(ctx, clientId)) ?? (await stripeCall(ctx, GATEWAY, '/v1/customers', { metadata: { tally_company_id: ctx.companyId, client_id: clientId } })).id;
  if (typeof customer !== 'string') throw TallyError.invalid({ gateway: { refused: `The gateway "${GATEWAY}" answered a Customer without an id.` } });
  const method = await stripeCall(ctx, GATEWAY, `/v1/payment_methods/${paymentMethod}/attach`, { customer });
  const card = method.card;
  if (method.type !== 'card' || !card || !/^\d{4}$/.test(String(card.last4))) throw TallyError.invalid({ token: { card: 'The PaymentMethod is not a card.' } });
  // Stripe answers the PaymentMethod it attached, whose id is the one to charge (a test token such as pm_card_visa becomes a new pm_...).
  const saved = { reference_id: stripeId(method.id, 'pm', 'token'), last4: String(card.last4), type: accountType(card.brand), expiration: expirationOf(card) };
  await ctx.db
    .insertInto(TABLE)
    .values({
      company_id: ctx.companyId,
      client_id: clientId,
      customer,
      payment_method: saved.reference_id,
      brand: saved.type,
      last4: saved.last4,
      expiration: saved.expiration,
      status: 'active',
      date_added: ctx.now(),
    })
    .execute();
  return saved;
}

/** Detaches the card from its Customer at Stripe and forgets it; one Stripe no longer has is forgotten all the same. */
export async function forgetCard(ctx: ExtensionContext, paymentMethod: string): Promise<void> {
  const row = await ctx.db.selectFrom(TABLE).select('id').where('payment_method', '=', paymentMethod).where('status', '=', 'active').executeTakeFirst();
  if (!row) return;
  const answer = await stripeRequest(ctx, `/v1/payment_methods/${stripeId(paymentMethod, 'pm', 'reference_id')}/detach`, {});
  if ((answer.status < 200 || answer.status >= 300) && answer.body?.error?.code !== 'resource_missing') throw stripeRefusal(GATEWAY, answer);
  await ctx.db.updateTable(TABLE).set({ status: 'removed' }).where('id', '=', row.id).execute();
}
