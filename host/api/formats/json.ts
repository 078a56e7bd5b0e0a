import type { Format } from './format';

export const json: Format = {
  token: 'json',
  contentType: 'application/json',
  render: (_root, body) => JSON.stringify(body),
};
