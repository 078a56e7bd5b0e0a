import { expect } from 'chai';
import { CallbackRate } from '../../../host/callbacks/callback-rate';
import { parseTestHosts } from '../../../host/extensions/sandbox-limits';

describe('the callback rate and the test hosts setting', () => {
  it('lets an address send its number per window, then refuses until the next window', () => {
    let now = 0;
    const rate = new CallbackRate(2, 1000, () => now);
    expect([rate.take('a'), rate.take('a'), rate.take('a'), rate.take('b')]).to.deep.equal([true, true, false, true]);
    now = 1000;
    expect(rate.take('a')).to.equal(true);
  });

  it('reads host=http://address:port entries and refuses anything else', () => {
    expect([...parseTestHosts('api.stripe.com=http://127.0.0.1:4010, api.paypal.com=https://127.0.0.1:4011')]).to.deep.equal([
      ['api.stripe.com', 'http://127.0.0.1:4010'],
      ['api.paypal.com', 'https://127.0.0.1:4011'],
    ]);
    expect(parseTestHosts(undefined).size).to.equal(0);
    for (const bad of ['api.stripe.com', 'api.stripe.com=ftp://x', 'api.stripe.com=http://127.0.0.1:4010/v1']) expect(() => parseTestHosts(bad), bad).to.throw(/TALLY_GATEWAY_TEST_HOSTS/);
  });
});
