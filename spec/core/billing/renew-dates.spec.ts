import { expect } from 'chai';
import fc from 'fast-check';
import { Money } from '../../../core/kernel/money';
import { proratedAmount } from '../../../core/billing/proration';
import { localDaysBetween, nextRenewDate, Period, prorataDate } from '../../../core/billing/renew-dates';

/**
 * Renew dates and proration against an oracle written independently of the code under test: the
 * local wall clock read with Intl (not luxon), calendar arithmetic by hand (own leap years, own
 * month lengths), days counted on proleptic day numbers.
 */

const ZONES = ['UTC', 'Europe/Paris', 'America/New_York', 'Australia/Sydney', 'Pacific/Auckland', 'Asia/Kolkata', 'America/Sao_Paulo'];

interface Wall {
  y: number;
  m: number;
  d: number;
  h: number;
  mi: number;
  s: number;
}

function wallOf(utc: string, zone: string): Wall {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(utc.replace(' ', 'T') + 'Z'));
  const get = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return { y: get('year'), m: get('month'), d: get('day'), h: get('hour'), mi: get('minute'), s: get('second') };
}

const leap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const monthLength = (y: number, m: number) => [31, leap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
const dayNumber = (w: { y: number; m: number; d: number }) => Date.UTC(w.y, w.m - 1, w.d) / 86_400_000;

function oracleAdd(w: Wall, term: number, period: Period): Wall {
  if (period === 'day' || period === 'week') {
    const date = new Date(Date.UTC(w.y, w.m - 1, w.d) + term * (period === 'week' ? 7 : 1) * 86_400_000);
    return { ...w, y: date.getUTCFullYear(), m: date.getUTCMonth() + 1, d: date.getUTCDate() };
  }
  const months = w.y * 12 + (w.m - 1) + term * (period === 'year' ? 12 : 1);
  const y = Math.floor(months / 12);
  const m = (months % 12) + 1;
  return { ...w, y, m, d: Math.min(w.d, monthLength(y, m)) };
}

const instant = fc.date({ min: new Date('2001-01-01T00:00:00Z'), max: new Date('2090-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 19).replace('T', ' '));
const zone = fc.constantFrom(...ZONES);
const period = fc.constantFrom<Period>('day', 'week', 'month', 'year');
// Local hours 04:00-23:59: every DST change of these zones happens between midnight and 03:00,
// where a wall time may not exist (moved forward) or exist twice; those are checked by example.
const awayFromDst = (utc: string, z: string) => wallOf(utc, z).h >= 4;

describe('renew dates (property: against a hand-written calendar oracle)', () => {
  it('term × period later on the company calendar: same wall time, day clamped to short months', () => {
    fc.assert(
      fc.property(instant, zone, fc.integer({ min: 1, max: 36 }), period, (from, z, term, p) => {
        fc.pre(awayFromDst(from, z));
        const result = nextRenewDate(from, term, p, z)!;
        expect(result).to.match(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
        const expected = oracleAdd(wallOf(from, z), term, p);
        fc.pre(expected.h >= 4);
        expect(wallOf(result, z)).to.deep.equal(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('is strictly later, and monthly renewals never skip a month', () => {
    fc.assert(
      fc.property(instant, zone, (from, z) => {
        const next = nextRenewDate(from, 1, 'month', z)!;
        expect(next > from).to.equal(true);
        const [a, b] = [wallOf(from, z), wallOf(next, z)];
        expect(b.y * 12 + b.m - (a.y * 12 + a.m)).to.equal(1);
      }),
      { numRuns: 300 },
    );
  });

  it('by example: month ends, leap years, DST', () => {
    expect(nextRenewDate('2027-01-31 10:00:00', 1, 'month', 'UTC')).to.equal('2027-02-28 10:00:00');
    expect(nextRenewDate('2028-01-31 10:00:00', 1, 'month', 'UTC')).to.equal('2028-02-29 10:00:00');
    expect(nextRenewDate('2028-02-29 10:00:00', 1, 'year', 'UTC')).to.equal('2029-02-28 10:00:00');
    expect(nextRenewDate('2028-02-29 10:00:00', 4, 'year', 'UTC')).to.equal('2032-02-29 10:00:00');
    // 10:00 in Paris is 09:00 UTC in winter and 08:00 UTC in summer.
    expect(nextRenewDate('2027-03-01 09:00:00', 1, 'month', 'Europe/Paris')).to.equal('2027-04-01 08:00:00');
    // Midnight in New York across the November change stays midnight.
    expect(nextRenewDate('2027-10-15 04:00:00', 1, 'month', 'America/New_York')).to.equal('2027-11-15 05:00:00');
    // 02:30 on the spring-forward day does not exist in Paris: moved forward an hour.
    expect(nextRenewDate('2027-02-28 01:30:00', 1, 'month', 'Europe/Paris')).to.equal('2027-03-28 01:30:00');
    expect(nextRenewDate('2027-01-31 10:00:00', 1, 'onetime', 'UTC')).to.equal(null);
  });
});

describe('proration (property: against the oracle)', () => {
  it('price × local days used ÷ local days of the period ending at the renew date', () => {
    fc.assert(
      fc.property(
        instant,
        zone,
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom<Period>('month', 'year', 'week'),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 400 }),
        (renews, z, term, p, cents, back) => {
          fc.pre(awayFromDst(renews, z));
          const end = wallOf(renews, z);
          const startWall = oracleAddBack(end, term, p);
          const total = dayNumber(end) - dayNumber(startWall);
          const from = new Date(new Date(renews.replace(' ', 'T') + 'Z').getTime() - back * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');
          const used = Math.max(0, Math.min(total, dayNumber(end) - dayNumber(wallOf(from, z))));
          const price = new Money(cents).dividedBy(100);
          const expected = price.times(used).dividedBy(total).toDecimalPlaces(4);
          expect(proratedAmount(price, from, renews, term, p, z).toFixed(4)).to.equal(expected.toFixed(4));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('a period known to start on a day the end month lacks (31 January to 28 February) counts its own days', () => {
    fc.assert(
      fc.property(
        instant,
        zone,
        fc.integer({ min: 1, max: 12 }),
        fc.constantFrom<Period>('month', 'year'),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 400 }),
        (began, z, term, p, cents, later) => {
          fc.pre(awayFromDst(began, z));
          const startWall = wallOf(began, z);
          const endWall = oracleAdd(startWall, term, p);
          fc.pre(endWall.h >= 4);
          const renews = nextRenewDate(began, term, p, z)!;
          const total = dayNumber(endWall) - dayNumber(startWall);
          const from = new Date(new Date(began.replace(' ', 'T') + 'Z').getTime() + later * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');
          const used = Math.max(0, Math.min(total, dayNumber(endWall) - dayNumber(wallOf(from, z))));
          const price = new Money(cents).dividedBy(100);
          const expected = price.times(used).dividedBy(total).toDecimalPlaces(4);
          expect(proratedAmount(price, from, renews, term, p, z, began).toFixed(4)).to.equal(expected.toFixed(4));
        },
      ),
      // Starts on the 29th to 31st are what this is about: many runs, so fast-check meets them.
      { numRuns: 1000 },
    );
    // 31 January + 1 month: 28 days, 10 of them left on 18 February (not 10 of the 31 from 28 January).
    expect(proratedAmount(new Money(28), '2027-02-18 10:00:00', '2027-02-28 10:00:00', 1, 'month', 'UTC', '2027-01-31 10:00:00').toFixed(4)).to.equal('10.0000');
    // A start one term after which is not the renew date (a pro rata first period) is not the period's start.
    expect(proratedAmount(new Money(31), '2027-01-21 10:00:00', '2027-02-01 10:00:00', 1, 'month', 'UTC', '2027-01-15 10:00:00').toFixed(4)).to.equal('11.0000');
  });

  it('the pro rata date is the next pro rata day after the start, at local midnight', () => {
    fc.assert(
      fc.property(instant, zone, fc.integer({ min: 1, max: 28 }), (start, z, day) => {
        const result = prorataDate(start, day, z);
        const w = wallOf(start, z);
        if (w.d === day) {
          expect(result).to.equal(null);
          return;
        }
        const r = wallOf(result!, z);
        expect(r.d).to.equal(day);
        // The first instant of that local day: midnight, or 01:00 where DST skips midnight.
        const secondBefore = new Date(new Date(result!.replace(' ', 'T') + 'Z').getTime() - 1000).toISOString().slice(0, 19).replace('T', ' ');
        expect(wallOf(secondBefore, z).d).to.not.equal(day);
        expect(r.mi * 60 + r.s).to.equal(0);
        const gap = dayNumber(r) - dayNumber(w);
        expect(gap).to.be.within(1, 31);
        expect(localDaysBetween(start, result!, z)).to.equal(gap);
      }),
      { numRuns: 300 },
    );
  });

  it("by example: 16 of January's 31 days; a pro rata day whose midnight DST skips", () => {
    expect(prorataDate('2016-10-10 12:00:00', 16, 'America/Sao_Paulo')).to.equal('2016-10-16 03:00:00');
    // Starting on the day whose midnight DST skipped: the next day begins at its own midnight.
    expect(prorataDate('2011-10-16 03:00:00', 17, 'America/Sao_Paulo')).to.equal('2011-10-17 02:00:00');
    expect(proratedAmount(new Money('31.00'), '2027-01-16 10:00:00', '2027-02-01 00:00:00', 1, 'month', 'UTC').toFixed(4)).to.equal('16.0000');
    expect(proratedAmount(new Money('29.00'), '2028-02-01 00:00:00', '2028-03-01 00:00:00', 1, 'month', 'UTC').toFixed(4)).to.equal('29.0000');
  });
});

function oracleAddBack(w: Wall, term: number, p: Period): Wall {
  if (p === 'week') return oracleAdd(w, -term, 'week');
  const months = w.y * 12 + (w.m - 1) - term * (p === 'year' ? 12 : 1);
  const y = Math.floor(months / 12);
  const m = (months % 12) + 1;
  return { ...w, y, m, d: Math.min(w.d, monthLength(y, m)) };
}
