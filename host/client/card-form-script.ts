import { asset } from '../admin/assets/serve-assets';

export const CARD_FORM_SCRIPT_PATH = '/client/assets/card-form.js';

/**
 * The client area's driver for a processor's card form (the `stripe-js` library of a gateway's
 * card_form), served as a file so the Content-Security-Policy still refuses inline script. It
 * mounts the processor's card element where the form says, and on submit asks the processor's
 * script for a PaymentMethod and posts only its id (`token`): the card fields live in the
 * processor's frame, have no name in Tally's form, and never reach Tally. The processor's refusal
 * is shown in the form's alert and nothing is posted.
 */
const SCRIPT = `
(function () {
  var form = document.getElementById('card-form');
  if (!form || form.getAttribute('data-card-library') !== 'stripe-js' || typeof window.Stripe !== 'function') return;
  // The processor's fields and its own messages in the page's language.
  var stripe = window.Stripe(form.getAttribute('data-publishable-key'), { locale: form.getAttribute('data-locale') || 'auto' });
  var card = stripe.elements().create('card');
  card.mount('#card-element');
  var problem = document.getElementById('card-problem');
  var button = form.querySelector('button[type=submit]');
  var say = function (text) { problem.textContent = text; problem.hidden = !text; };
  form.addEventListener('submit', function (event) {
    if (form.elements.token.value) return;
    event.preventDefault();
    button.disabled = true;
    say('');
    stripe.createPaymentMethod({ type: 'card', card: card }).then(function (answer) {
      if (answer.error || !answer.paymentMethod) {
        button.disabled = false;
        return say((answer.error && answer.error.message) || form.getAttribute('data-unchecked'));
      }
      form.elements.token.value = answer.paymentMethod.id;
      form.submit();
    }, function () {
      button.disabled = false;
      say(form.getAttribute('data-unreachable'));
    });
  });
})();
`;

export const CARD_FORM_SCRIPT = asset('text/javascript; charset=utf-8', SCRIPT);
