import { expect } from 'chai';
import { DateTime } from 'luxon';
import { formatUtc, isValidZone, parseTimestamp } from '../../../core/kernel/timestamps';

const NY = 'America/New_York';

function parsed(input: string, zone = NY): string | null {
  const d = parseTimestamp(input, zone);
  return d === null ? null : formatUtc(d);
}

describe('timestamps', () => {
  describe('formatUtc', () => {
    it('writes YYYY-MM-DD hh:mm:ss in UTC, zero-padded, 24-hour', () => {
      expect(formatUtc(new Date(Date.UTC(2021, 0, 2, 3, 4, 5)))).to.equal('2021-01-02 03:04:05');
      expect(formatUtc(new Date(Date.UTC(2021, 11, 31, 23, 59, 59, 999)))).to.equal('2021-12-31 23:59:59');
    });

    it("writes what luxon's yyyy-MM-dd HH:mm:ss in UTC writes, across years, leap days and far-off dates", () => {
      const luxon = (d: Date) => DateTime.fromJSDate(d, { zone: 'utc' }).toFormat('yyyy-MM-dd HH:mm:ss');
      const dates = [Date.UTC(2024, 1, 29, 0, 0, 0), Date.UTC(1970, 0, 1), Date.UTC(9999, 11, 31, 23, 59, 59), -1, 8.64e15, -8.64e15];
      for (const year of [-1, 0, 5, 99, 999, 1000, 10000, 275759]) dates.push(new Date(Date.UTC(2000, 6, 4, 5, 6, 7)).setUTCFullYear(year));
      for (let i = 0; i < 500; i++) dates.push(Math.round((Math.random() - 0.5) * 2 * 8.64e15));
      for (const time of dates) expect(formatUtc(new Date(time)), String(time)).to.equal(luxon(new Date(time)));
    });

    it('refuses an invalid Date', () => {
      expect(() => formatUtc(new Date(NaN))).to.throw(RangeError);
    });
  });

  describe('parseTimestamp', () => {
    it('reads a zoneless time in the company zone', () => {
      expect(parsed('2021-12-31 12:00:00')).to.equal('2021-12-31 17:00:00');
      expect(parsed('2021-07-01 12:00:00')).to.equal('2021-07-01 16:00:00');
      expect(parsed('2021-12-31 12:00:00', 'Asia/Tokyo')).to.equal('2021-12-31 03:00:00');
    });

    it('reads an explicit offset', () => {
      expect(parsed('2021-12-31 12:00:00 +02:00')).to.equal('2021-12-31 10:00:00');
      expect(parsed('2021-12-31 12:00:00 -05:30')).to.equal('2021-12-31 17:30:00');
      expect(parsed('2021-12-31 00:30:00 +01:00')).to.equal('2021-12-30 23:30:00');
    });

    it('reads UTC and the ISO Z form', () => {
      expect(parsed('2021-12-31 12:00:00 UTC')).to.equal('2021-12-31 12:00:00');
      expect(parsed('2021-12-31T12:00:00Z')).to.equal('2021-12-31 12:00:00');
    });

    it('reads a date alone as local midnight of the company', () => {
      expect(parsed('2021-12-31')).to.equal('2021-12-31 05:00:00');
      expect(parsed('2021-12-31', 'UTC')).to.equal('2021-12-31 00:00:00');
    });

    it('tolerates surrounding whitespace', () => {
      expect(parsed('  2021-12-31 12:00:00 UTC\n')).to.equal('2021-12-31 12:00:00');
      expect(parsed('\t2021-12-31 ')).to.equal('2021-12-31 05:00:00');
    });

    it('moves a time skipped by a DST jump forward', () => {
      // 02:30 does not exist in New York on 2021-03-14; it becomes 03:30 EDT.
      expect(parsed('2021-03-14 02:30:00')).to.equal('2021-03-14 07:30:00');
    });

    it('resolves an ambiguous fall-back time to one definite instant', () => {
      // luxon takes the standard-time reading (-05:00); pinned so a change is noticed.
      expect(parsed('2021-11-07 01:30:00')).to.equal('2021-11-07 06:30:00');
    });

    it('returns null for dates that do not exist', () => {
      for (const s of ['2021-02-30', '2021-02-29 00:00:00', '2021-13-01', '2021-00-10', '2021-04-31 10:00:00 UTC']) {
        expect(parseTimestamp(s, NY), s).to.equal(null);
      }
      expect(parsed('2020-02-29')).to.equal('2020-02-29 05:00:00');
    });

    it('returns null for out-of-range times and offsets', () => {
      for (const s of ['2021-01-01 24:00:00', '2021-01-01 12:60:00', '2021-01-01 12:00:60', '2021-01-01 12:00:00 +01:60', '2021-01-01 12:00:00 +24:00']) {
        expect(parseTimestamp(s, NY), s).to.equal(null);
      }
    });

    it('returns null for every other shape', () => {
      const rejected = [
        '',
        '   ',
        'garbage',
        'now',
        '2021-12-31 12:00',
        '2021-12-31T12:00:00',
        '2021-12-31T12:00:00+02:00',
        '2021-12-31 12:00:00Z',
        '2021-12-31 12:00:00 utc',
        '2021-12-31 12:00:00 +0200',
        '2021-12-31 12:00:00  UTC',
        '2021-12-31  12:00:00',
        '21-12-31',
        '2021-1-31',
        '2021/12/31',
        '2021-12-31 12:00:00.000',
        '2021-12-31 12:00:00 GMT',
        '2021-12-31 12:00:00 America/New_York',
        '1640966400',
        '２０２１-12-31',
      ];
      for (const s of rejected) expect(parseTimestamp(s, NY), JSON.stringify(s)).to.equal(null);
    });

    it('does not need a valid company zone when the input carries its own', () => {
      expect(formatUtc(parseTimestamp('2021-12-31 12:00:00 UTC', 'Not/AZone')!)).to.equal('2021-12-31 12:00:00');
    });

    it('throws when a zoneless input meets an invalid company zone', () => {
      expect(() => parseTimestamp('2021-12-31 12:00:00', 'Not/AZone')).to.throw(RangeError);
      expect(() => parseTimestamp('2021-12-31', '')).to.throw(RangeError);
    });
  });

  describe('isValidZone', () => {
    it('accepts IANA names', () => {
      for (const z of ['America/New_York', 'Europe/Amsterdam', 'UTC', 'Asia/Kolkata', 'Etc/GMT+5']) {
        expect(isValidZone(z), z).to.equal(true);
      }
    });

    it('refuses everything else', () => {
      for (const z of ['', 'Mars/Olympus_Mons', '+02:00', 'Z', 'America/New York', 'garbage']) {
        expect(isValidZone(z), z).to.equal(false);
      }
    });
  });
});
