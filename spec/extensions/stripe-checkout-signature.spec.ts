import { expect } from 'chai';
import Stripe from 'stripe';
import { checkSignature, TOLERANCE_SECONDS } from '../../extensions/gateways/shared/stripe/stripe-signature';
import { fromMinorUnits, toMinorUnits } from '../../extensions/gateways/shared/amounts/minor-units';

const SECRET = 'whsec_unit';
const stripe = new Stripe('sk_test_unused');

describe("stripe_checkout's signature check against the stripe package's signer", () => {
  const payload = JSON.stringify({ type: 'checkout.session.completed', note: 'Zoë €' });
  const now = 1_800_000_000;
  const header = (timestamp = now, secret = SECRET, body = payload) => stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp });

  it('accepts what Stripe signs, non-ASCII bodies included, up to the tolerance either side', () => {
    expect(checkSignature(header(), payload, SECRET, now)).to.deep.equal({ ok: true });
    expect(checkSignature(header(now - TOLERANCE_SECONDS), payload, SECRET, now).ok).to.equal(true);
    expect(checkSignature(header(now + TOLERANCE_SECONDS), payload, SECRET, now).ok).to.equal(true);
  });

  it('refuses another secret, an altered body, a replay, and a header without t or v1', () => {
    expect(checkSignature(header(now, 'whsec_other'), payload, SECRET, now).ok).to.equal(false);
    expect(checkSignature(header(), payload.replace('Zoë', 'Zoe'), SECRET, now).ok).to.equal(false);
    expect(checkSignature(header(now - TOLERANCE_SECONDS - 1), payload, SECRET, now)).to.deep.include({ ok: false });
    expect(checkSignature(`t=${now}`, payload, SECRET, now).ok).to.equal(false);
    expect(checkSignature(header().replace(/t=\d+,/, ''), payload, SECRET, now).ok).to.equal(false);
    expect(checkSignature(undefined, payload, SECRET, now).ok).to.equal(false);
  });

  it('accepts when any of several v1 signatures matches (Stripe rolling a secret)', () => {
    const good = header().split('v1=')[1];
    expect(checkSignature(`t=${now},v1=${'0'.repeat(64)},v1=${good}`, payload, SECRET, now).ok).to.equal(true);
  });
});

describe("Stripe's amounts in the currency's smallest unit", () => {
  it('converts decimals both ways, JPY in whole yen, and refuses more places than the currency has', () => {
    expect(toMinorUnits('12.50', 'USD')).to.equal(1250);
    expect(toMinorUnits('12.5000', 'usd')).to.equal(1250);
    expect(toMinorUnits('12.505', 'USD')).to.equal(null);
    expect(toMinorUnits('1200', 'JPY')).to.equal(1200);
    expect(toMinorUnits('1200.5', 'JPY')).to.equal(null);
    expect(fromMinorUnits(1250, 'usd')).to.equal('12.50');
    expect(fromMinorUnits(5, 'USD')).to.equal('0.05');
    expect(fromMinorUnits(1200, 'JPY')).to.equal('1200');
  });
});
