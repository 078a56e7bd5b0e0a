import { expect } from 'chai';
import fc from 'fast-check';
import { Money } from '../../../core/kernel/money';
import { daysToProrate, isAfterProrataCutoff, isProrataDay, prorateDate, proratePrice } from '../../../core/billing/prorata-helpers';
import { localTime, Period } from '../../../core/billing/renew-dates';

const ZONES = ['UTC', 'Europe/Paris', 'America/New_York', 'Australia/Sydney', 'Pacific/Auckland'];
const pad = (n: number) => String(n).padStart(2, '0');
/** A stored UTC timestamp between 2020 and 2031. */
const instant = fc.date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2031-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => {
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
});
const zone = fc.constantFrom(...ZONES);
const day = fc.integer({ min: 1, max: 28 });
const monthOrYear = fc.constantFrom<Period>('month', 'year');

describe('packages: proration helpers (pure)', () => {
  it('prorates to the next local pro rata day, strictly after the start, within a month; nothing on the day itself', () => {
    fc.assert(
      fc.property(instant, zone, day, monthOrYear, (start, z, d, period) => {
        const to = prorateDate(start, period, d, z);
        const days = daysToProrate(start, period, d, z);
        if (isProrataDay(start, d, z)) {
          expect(to).to.equal(null);
          expect(days).to.equal(0);
        } else {
          expect(to).to.be.a('string');
          const local = localTime(to as string, z);
          expect(local.day).to.equal(d);
          expect([local.hour, local.minute]).to.deep.equal([0, 0]);
          expect(days).to.be.within(1, 31);
        }
      }),
    );
  });

  it('never prorates days, weeks or one-time pricing by a pro rata day', () => {
    fc.assert(
      fc.property(instant, zone, day, fc.constantFrom<Period>('day', 'week', 'onetime'), (start, z, d, period) => {
        expect(prorateDate(start, period, d, z)).to.equal(false);
        expect(daysToProrate(start, period, d, z)).to.equal(false);
        expect(proratePrice(new Money('30'), start, 1, period, d, false, null, z).toFixed(4)).to.equal('30.0000');
      }),
    );
  });

  it('a prorated price is between nothing and the whole price, and the whole price when there is nothing to prorate', () => {
    fc.assert(
      fc.property(instant, zone, day, fc.integer({ min: 0, max: 100000 }), fc.integer({ min: 1, max: 3 }), (start, z, d, cents, term) => {
        const price = new Money(cents).dividedBy(100);
        const prorated = proratePrice(price, start, term, 'month', d, false, null, z);
        expect(prorated.gte(0) && prorated.lte(price), `${prorated} of ${price}`).to.equal(true);
        const days = daysToProrate(start, 'month', d, z) as number;
        if (days === 0) expect(prorated.eq(price)).to.equal(true);
      }),
    );
  });

  it('examples: half of a 30-day month, and the cut-off', () => {
    // April has 30 days: from 16 April to 1 May is 15 of them.
    expect(proratePrice(new Money('30'), '2026-04-16 00:00:00', 1, 'month', 1, false, null, 'UTC').toFixed(4)).to.equal('15.0000');
    expect(daysToProrate('2026-04-16 00:00:00', 'month', 1, 'UTC')).to.equal(15);
    // A prorate date given instead of a day, for a weekly price when every recurring period is allowed.
    expect(proratePrice(new Money('7'), '2026-04-16 00:00:00', 1, 'week', null, true, '2026-04-19 00:00:00', 'UTC').toFixed(4)).to.equal('3.0000');
    expect(proratePrice(new Money('7'), '2026-04-16 00:00:00', 1, 'week', null, false, '2026-04-19 00:00:00', 'UTC').toFixed(4)).to.equal('7.0000');
    // 23:30 on the 15th in New York is the 16th in UTC: the company's calendar decides.
    expect(isAfterProrataCutoff('2026-04-16 03:30:00', 15, 'America/New_York')).to.equal(false);
    expect(isAfterProrataCutoff('2026-04-16 03:30:00', 15, 'UTC')).to.equal(true);
    expect(isAfterProrataCutoff('2026-04-16 03:30:00', null, 'UTC')).to.equal(false);
  });
});
