import { AdminRequest, callAs } from '../admin-request';
import { html, SafeHtml } from '../../web/html';

interface PluginCard {
  readonly id: number;
  readonly plugin_dir: string;
  readonly label: string;
  readonly link: string | null;
}

/**
 * The cards the company's enabled plugins registered for a client's profile (plugin_manager/getCards,
 * level client), read through the call path as the signed-in member. A card shows its label as text,
 * named by its plugin, and links to its link (a path on Tally or an http(s) address the model
 * checked); nothing a plugin registered is ever drawn as markup. Nothing when there are none.
 */
export async function pluginCardsPanel(request: AdminRequest): Promise<SafeHtml> {
  if (!request.installation.isCallable('plugin_manager', 'getCards')) return html``;
  const cards = (await callAs(request, 'plugin_manager', 'getCards', { company_id: request.company.id, level: 'client', enabled: true })) as PluginCard[];
  if (!cards.length) return html``;
  return html`<ul class="totals plugin-cards" aria-label="From plugins">
${cards.map((card) => html`<li><span class="hint">${card.plugin_dir}</span><span class="value">${card.link ? html`<a href="${card.link}">${card.label}</a>` : card.label}</span></li>`)}
</ul>`;
}
