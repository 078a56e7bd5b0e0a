import { html, SafeHtml } from '../../web/html';

/** A tax as taxes/getApplicable answers it: what the live total needs of it. */
export interface TaxInForce {
  readonly rate: string;
  readonly type: string;
}

/**
 * The invoice form's live total: hidden without a script, shown and kept up to date by admin.js
 * (LIVE_TOTAL_SCRIPT) as lines are typed, so the total is seen before the invoice is made. It
 * totals as core/billing/totals.ts does (each tax once on the taxed lines, rounded once; inclusive
 * taxes are inside the amounts), with the client's taxes in force; with no client chosen yet the
 * taxes are not known, and it says the total is before taxes. The invoice's own total is the
 * model's, on the invoice's page.
 */
export function liveTotal(taxes: readonly TaxInForce[] | null, precisions: Readonly<Record<string, number>>): SafeHtml {
  return html`<p class="live-total" data-live-total data-taxes="${JSON.stringify(taxes)}" data-precisions="${JSON.stringify(precisions)}" hidden>
  <span class="hint">${taxes ? 'Total' : 'Total before taxes'}</span> <output aria-live="polite" id="invoice-live-total"></output>
</p>`;
}

/**
 * The part of admin.js that keeps a form's live total: on every change, Σ quantity × unit price
 * (each line at four places), the taxes of the taxed lines, rounded to the currency's precision.
 */
export const LIVE_TOTAL_SCRIPT = `
  function liveTotal(form) {
    var box = form.querySelector('[data-live-total]');
    if (!box) return;
    var taxes = JSON.parse(box.getAttribute('data-taxes')) || [];
    var precisions = JSON.parse(box.getAttribute('data-precisions'));
    var currency = form.querySelector('[name="currency"]').value;
    var places = precisions[currency] === undefined ? 2 : precisions[currency];
    var round = function (value, digits) { var f = Math.pow(10, digits); return Math.round((value + (value < 0 ? -1 : 1) * 1e-9) * f) / f; };
    var number = function (text) { text = text.trim(); return /^-?\\d+(\\.\\d+)?$/.test(text) ? Number(text) : NaN; };
    var subtotal = 0, taxable = 0, bad = false;
    form.querySelectorAll('[name$="[amount]"]').forEach(function (price) {
      if (price.value.trim() === '') return;
      var row = price.closest('tr');
      var qtyText = row.querySelector('[name$="[qty]"]').value;
      var line = round(number(qtyText.trim() === '' ? '1' : qtyText) * number(price.value), 4);
      if (isNaN(line)) { bad = true; return; }
      subtotal += line;
      if (row.querySelector('[name$="[tax]"]').checked) taxable += line;
    });
    var output = box.querySelector('output');
    box.hidden = false;
    if (bad) { output.textContent = 'check the quantities and prices'; return; }
    var inclusive = taxes.filter(function (t) { return t.type === 'inclusive'; }).reduce(function (s, t) { return s + Number(t.rate); }, 0);
    var net = taxable / (1 + inclusive / 100);
    var added = taxes.filter(function (t) { return t.type === 'exclusive'; }).reduce(function (s, t) { return s + round(net * Number(t.rate) / 100, places); }, 0);
    output.textContent = round(round(subtotal, places) + added, places).toFixed(places) + ' ' + currency;
  }
  document.querySelectorAll('form').forEach(function (form) {
    if (!form.querySelector('[data-live-total]')) return;
    form.addEventListener('input', function () { liveTotal(form); });
    form.addEventListener('change', function () { liveTotal(form); });
    liveTotal(form);
  });
`;
