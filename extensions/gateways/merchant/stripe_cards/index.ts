import { migrations } from './migrations';
import { Tokens } from './tokens';

/** Stripe Cards: `stripe_cards.tokens` (the merchant contract: save, charge, capture, void, refund, notifications). */
export const models = { tokens: Tokens };
export { migrations };
