import { html, SafeHtml } from '../../web/html';
import { allowThirdParty } from '../../web/security-headers';
import { CardForm } from '../../../core/payments/card-form';
import { ClientRequest } from '../client-request';
import { csrfField, wordsOf } from '../client-layout';
import { CARD_FORM_SCRIPT_PATH } from '../card-form-script';

/** What a page's processor card form posts besides the token: its address, hidden fields, one choice and its button. */
export interface ProcessorCardFormParts {
  readonly action: string;
  readonly hidden?: SafeHtml;
  readonly choice: { readonly name: string; readonly id: string; readonly label: string };
  readonly button: string;
}

/**
 * The processor's card form (a gateway's manifest `card_form`): its script draws the card fields in
 * its own frame inside #card-element, and the area's driver (card-form-script.ts) posts only the
 * token it answers. The page's Content-Security-Policy lets in exactly the origins the gateway
 * declares. Without script nothing can be posted, and the page says so.
 */
export function processorCardForm(request: ClientRequest, form: CardForm, parts: ProcessorCardFormParts): SafeHtml {
  allowThirdParty(request.ctx, { script: form.script_origins, frame: form.frame_origins, connect: form.connect_origins });
  const { t, lang } = wordsOf(request.company);
  return html`<p>${t('accounts.tokenIntro')}</p>
<form method="post" action="${parts.action}" class="stacked panel" id="card-form" data-card-library="${form.library}" data-publishable-key="${form.publishable_key}" data-unchecked="${t('cardForm.unchecked')}" data-unreachable="${t('cardForm.unreachable')}" data-locale="${lang.slice(0, 2)}">
${csrfField(request)}
${parts.hidden ?? ''}
<input type="hidden" name="token" value="">
<div class="field"><span class="label" id="card-element-label">${t('accounts.card')}</span><div id="card-element" class="card-element" role="group" aria-labelledby="card-element-label"></div></div>
<p class="notice error" id="card-problem" role="alert" hidden></p>
<noscript><p>${t('accounts.needsScript')}</p></noscript>
<div class="field"><input type="checkbox" id="${parts.choice.id}" name="${parts.choice.name}" value="true"> <label for="${parts.choice.id}">${parts.choice.label}</label></div>
<div><button type="submit">${parts.button}</button></div>
</form>
<script src="${form.script}"></script>
<script src="${CARD_FORM_SCRIPT_PATH}"></script>`;
}
