/** The gateway's name: the transactions it records and the refusals it answers name it. */
export const GATEWAY = 'stripe_cards';
