import { expect } from 'chai';
import { Money } from '../../../core/kernel/money';
import { formatAmount } from '../../../core/billing/currency-format';
import { parseAmount, parseQuantity } from '../../../core/billing/lines';
import { formatInvoiceNumber } from '../../../core/billing/numbering';
import { closedDate } from '../../../core/billing/settlement';

describe('billing values', () => {
  it('reads quantities: blank is 1, decimals, fractions and mixed numbers; nothing else', () => {
    const read = (v: unknown) => parseQuantity(v)?.toFixed(4) ?? null;
    expect([undefined, null, '', '  '].map(read)).to.deep.equal(['1.0000', '1.0000', '1.0000', '1.0000']);
    expect(['2', '0.5', '1 1/2', '3/4', '2 2/3', 7].map(read)).to.deep.equal(['2.0000', '0.5000', '1.5000', '0.7500', '2.6667', '7.0000']);
    expect(['1/0', 'two', '1 1/2/3', '1e2', '1234567'].map(read)).to.deep.equal([null, null, null, null, null]);
  });

  it('keeps unit amounts to the four places stored', () => {
    expect(parseAmount('0.33335')!.toFixed()).to.equal('0.3334');
    expect(parseAmount('-0.00005')!.toFixed()).to.equal('-0.0001');
    expect(parseAmount('ten')).to.equal(null);
  });

  it('writes amounts the way each currency format says', () => {
    const look = (format: string, precision = 2) => ({ format, precision, prefix: '', suffix: '' });
    const amount = new Money('1234567.895');
    expect(formatAmount(amount, look('#,###.##'))).to.equal('1,234,567.90');
    expect(formatAmount(amount, look('#.###,##'))).to.equal('1.234.567,90');
    expect(formatAmount(amount, look('# ###,##'))).to.equal('1 234 567,90');
    expect(formatAmount(amount, look('####.##'))).to.equal('1234567.90');
    expect(formatAmount(amount, look('#,###.##', 0))).to.equal('1,234,568');
    expect(formatAmount(new Money('-0.001'), { format: '#,###.##', precision: 2, prefix: '$', suffix: '' })).to.equal('$0.00');
    expect(formatAmount(new Money('-5'), { format: '#,###.##', precision: 2, prefix: '$', suffix: ' USD' })).to.equal('-$5.00 USD');
  });

  it('formats invoice numbers by replacing every {num}', () => {
    expect(formatInvoiceNumber('{num}', 7)).to.equal('7');
    expect(formatInvoiceNumber('INV-{num}/{num}', 1042)).to.equal('INV-1042/1042');
  });

  it('closes an invoice when nothing is due, keeps the first closing date, and reopens it', () => {
    const [total, now] = [new Money(10), '2024-01-02 00:00:00'];
    expect(closedDate('active', total, new Money(10), null, now)).to.equal(now);
    expect(closedDate('active', total, new Money(10), '2024-01-01 00:00:00', now)).to.equal('2024-01-01 00:00:00');
    expect(closedDate('active', total, new Money(9.99), '2024-01-01 00:00:00', now)).to.equal(null);
    expect(closedDate('draft', total, new Money(10), null, now)).to.equal(null);
    expect(closedDate('void', total, new Money(0), null, now)).to.equal(now);
  });
});
