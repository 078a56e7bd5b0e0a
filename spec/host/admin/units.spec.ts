import { expect } from 'chai';
import { Installation } from '../../../core/installation';
import { adminDb } from '../../../host/admin/admin-tables';
import { ApiCallCounter, apiCallsLastDay } from '../../../host/admin/api-call-counter';
import { html, raw } from '../../../host/web/html';
import { moneyText, totalsByCurrency } from '../../../host/admin/money-text';
import { safeNext } from '../../../host/admin/staff-sign-in';
import { useTestInstallation } from '../../support/test-installation';

describe('admin html template', () => {
  it('escapes every interpolated value, attributes included', () => {
    const name = `<script>alert("x")</script>' onmouseover='y' \``;
    expect(html`<p title="${name}">${name}</p>`.text).to.equal(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;y&#39; &#96;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;y&#39; &#96;</p>',
    );
  });

  it('nests templates and lists without escaping them twice, and renders nothing for null, undefined and false', () => {
    const items = ['a&b', 'c'].map((x) => html`<li>${x}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${0}`.text).to.equal('<ul><li>a&amp;b</li><li>c</li></ul>0');
    expect(html`${raw('<br>')}`.text).to.equal('<br>');
  });
});

describe('admin sign-in: where to go next', () => {
  it('keeps paths inside the area and refuses everything else', () => {
    expect(safeNext('/admin/settings/api?company=2')).to.equal('/admin/settings/api?company=2');
    expect(safeNext('/admin')).to.equal('/admin');
    for (const bad of ['https://evil.example', '//evil.example', '/admin//evil.example', '/administrator', '/admin/../api', '/admin\\evil', '/admin/sign-out', undefined, ['/admin/x']]) {
      expect(safeNext(bad), String(bad)).to.equal('/admin');
    }
  });
});

describe('admin money text', () => {
  it('adds amounts per currency exactly and writes them in their currency', () => {
    const totals = totalsByCurrency([
      { currency: 'USD', amount: '0.1000' },
      { currency: 'USD', amount: '0.2000' },
      { currency: 'EUR', amount: '5.0000' },
    ]);
    expect([...totals]).to.deep.equal([
      ['EUR', '5.0000'],
      ['USD', '0.3000'],
    ]);
    expect(moneyText('1234.5000', 'USD')).to.equal('$1,234.50');
    expect(moneyText('12.3400', 'ZZZ')).to.match(/12\.34/);
  });
});

describe('API call counter', () => {
  let installation: Installation;
  useTestInstallation((opened) => ({ installation } = opened));

  it('adds the counts of several processes per hour, and reports the last 24 hours', async () => {
    const db = adminDb(installation.db);
    const now = Date.parse('2030-06-01T12:30:00Z');
    const one = new ApiCallCounter(db);
    const two = new ApiCallCounter(db);
    for (let i = 0; i < 3; i++) one.record(200, now);
    one.record(404, now);
    two.record(200, now);
    two.record(200, now - 23 * 3_600_000);
    two.record(200, now - 25 * 3_600_000);
    await Promise.all([one.flush(), two.flush()]);
    one.record(500, now);
    await one.flush();
    await one.flush();
    expect(await apiCallsLastDay(db, now)).to.deep.equal({ ok: 5, error: 2 });
    const rows = await db.selectFrom('api_call_stats').select(['hour', 'outcome', 'calls']).where('hour', '=', '2030-06-01 12:00:00').orderBy('outcome').execute();
    expect(rows.map((r) => [r.outcome, Number(r.calls)])).to.deep.equal([
      ['error', 2],
      ['ok', 4],
    ]);
  });
});
