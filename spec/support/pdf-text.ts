/** What a PDF says, read back with Mozilla's PDF.js (pdfjs-dist), independent of the library that wrote it. */
export interface PdfText {
  /** Each page's text items, in the order drawn, each one run of text. */
  readonly pages: readonly (readonly string[])[];
  /** The document's metadata dictionary (Title, CreationDate, ...). */
  readonly info: Record<string, unknown>;
}

export async function readPdf(pdf: Buffer): Promise<PdfText> {
  // pdfjs-dist is an ES module; Node 20.19+ requires it as such.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pdfjs = require('pdfjs-dist/legacy/build/pdf.mjs') as typeof import('pdfjs-dist/legacy/build/pdf.mjs');
  const document = await pdfjs.getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, isEvalSupported: false }).promise;
  try {
    const pages: string[][] = [];
    for (let n = 1; n <= document.numPages; n++) {
      const content = await (await document.getPage(n)).getTextContent();
      pages.push(content.items.map((item) => ('str' in item ? item.str : '')).filter((s) => s !== ''));
    }
    const { info } = (await document.getMetadata()) as unknown as { info: Record<string, unknown> };
    return { pages, info };
  } finally {
    await document.destroy();
  }
}
