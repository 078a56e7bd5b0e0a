import fs from 'node:fs';
import { Command } from 'commander';
import { TallyError } from '../../core/kernel/tally-error';
import { localCaller } from './open-installation';
import { parseId, withInstallation } from './api-keys-command';
import { auditedCall } from './audited-call';

interface RenderedPdf {
  filename: string;
  pdf: string;
  missing_glyphs: string[];
}

/**
 * `tally invoices pdf|set-logo|set-font`: an invoice's PDF written to a file, and the logo and font
 * of a company's PDFs read from files, through the same model methods as the API
 * (invoices/getPdf, setPdfLogo, setPdfFont) as the server's own caller for the company.
 */
export function invoicesCommand(out: (text: string) => void, warn: (text: string) => void): Command {
  const command = new Command('invoices').description("PDF invoices: write one to a file, set the company's logo and font");
  command
    .command('pdf <invoice_id>')
    .description('Write the invoice as a PDF to --output (default invoice-<number>.pdf in this directory)')
    .option('--company <id>', 'company id', parseId, 1)
    .option('--output <file>', 'file to write (- for standard output)')
    .action(async (invoiceId: string, options: { company: number; output?: string }) => {
      const rendered = (await withInstallation((i) => i.call('invoices', 'getPdf', { invoice_id: parseId(invoiceId) }, localCaller(options.company)))) as RenderedPdf | false;
      if (!rendered) throw TallyError.invalid({ invoice_id: { exists: 'Invalid invoice ID.' } });
      const bytes = Buffer.from(rendered.pdf, 'base64');
      if (rendered.missing_glyphs.length) warn(`No font has these characters (printed as boxes): ${rendered.missing_glyphs.join(' ')}; add one with tally invoices set-font.`);
      if (options.output === '-') {
        process.stdout.write(bytes);
        return;
      }
      const file = options.output ?? rendered.filename;
      fs.writeFileSync(file, bytes);
      out(`${file} (${bytes.length} bytes)`);
    });
  for (const [name, method, param, what] of [
    ['set-logo', 'setPdfLogo', 'logo', 'a PNG or JPEG image'],
    ['set-font', 'setPdfFont', 'font', 'a TrueType or OpenType font'],
  ] as const) {
    command
      .command(`${name} <file>`)
      .description(`Set the company's PDF ${param} from ${what} (an empty file removes it)`)
      .option('--company <id>', 'company id', parseId, 1)
      .action(async (file: string, options: { company: number }) => {
        const content = fs.readFileSync(file).toString('base64');
        await withInstallation((i) => auditedCall(i, 'invoices', method, { [param]: content }, options.company));
        out(content ? `${param} set from ${file}` : `${param} removed`);
      });
  }
  return command;
}
