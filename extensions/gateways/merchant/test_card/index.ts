import { Cards } from './cards';
import { migrations } from './migrations';
import { Tokens } from './tokens';

/** Test Card: `test_card.cards` (charge a card) and `test_card.tokens` (store a card, charge it later). */
export const models = { cards: Cards, tokens: Tokens };
export { migrations };
