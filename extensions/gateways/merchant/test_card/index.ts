import { Cards } from './cards';
import { migrations } from './migrations';

/** Test Card: `test_card.cards`. */
export const models = { cards: Cards };
export { migrations };
