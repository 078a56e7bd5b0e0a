import { html, HtmlValue, SafeHtml } from '../../web/html';

export interface Column {
  readonly label: string;
  /** Right-aligned figures (amounts, counts). */
  readonly numeric?: boolean;
}

/**
 * A table of the area. Each cell carries its column's label (`data-label`), which the phone layout
 * shows before the value when the rows become cards, so a figure never loses what it is. With no
 * rows the table is not drawn: `empty` says what to do next instead.
 */
export function dataTable(caption: string, columns: readonly Column[], rows: readonly (readonly HtmlValue[])[], empty: SafeHtml | string): SafeHtml {
  if (!rows.length) return html`<p class="empty">${empty}</p>`;
  return html`<div class="table-wrap"><table>
<caption>${caption}</caption>
<thead><tr>${columns.map((c) => html`<th scope="col"${c.numeric ? html` class="num"` : ''}>${c.label}</th>`)}</tr></thead>
<tbody>
${rows.map((cells) => html`<tr>${cells.map((cell, i) => html`<td data-label="${columns[i]?.label ?? ''}"${columns[i]?.numeric ? html` class="num"` : ''}>${cell}</td>`)}</tr>`)}
</tbody></table></div>`;
}
