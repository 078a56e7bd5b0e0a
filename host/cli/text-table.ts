import { terminalText } from './terminal-text';

/**
 * Rows as columns padded to their widest cell, for a command's listing. Every cell goes through
 * terminalText: values written over the API (URLs, descriptions, errors) cannot drive the terminal
 * or forge a row.
 */
export function textTable(head: string[], rows: ReadonlyArray<ReadonlyArray<unknown>>): string {
  const cells = [head, ...rows.map((r) => r.map(terminalText))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  return cells
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
