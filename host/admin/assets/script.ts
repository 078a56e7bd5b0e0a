import { LIVE_TOTAL_SCRIPT } from '../components/live-total';

/**
 * The area's only script, served as /admin/assets/admin.js (a file rather than inline, so the
 * Content-Security-Policy can refuse every inline script). Every page works without it: it adds
 * the copy button's behaviour, a confirmation before destructive buttons, and the invoice form's
 * live total.
 */
export const SCRIPT = `
(function () {
  document.addEventListener('click', function (event) {
    var button = event.target.closest('[data-copy]');
    if (!button) return;
    var source = document.getElementById(button.getAttribute('data-copy'));
    var status = document.getElementById(button.getAttribute('aria-describedby'));
    var say = function (text) { if (status) status.textContent = text; };
    var text = source.value || source.textContent;
    var fallback = function () {
      source.focus(); source.select();
      say(document.execCommand('copy') ? 'Copied.' : 'Press Ctrl+C (or Cmd+C) to copy.');
    };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(function () { say('Copied.'); }, fallback);
    else fallback();
  });
  document.addEventListener('submit', function (event) {
    var message = event.submitter && event.submitter.getAttribute('data-confirm');
    if (message && !window.confirm(message)) event.preventDefault();
  });
${LIVE_TOTAL_SCRIPT}
})();
`;
