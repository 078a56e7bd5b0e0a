import { createHash } from 'node:crypto';
import fs from 'node:fs';
import * as fontkit from 'fontkit';

export type Font = fontkit.Font;

/** The largest font a company may add: a full CJK font is 10–20 MB; subsets for one script are far smaller. */
export const MAX_FONT_BYTES = 4 * 1024 * 1024;

/**
 * DejaVu Sans (regular and bold), shipped by the dejavu-fonts-ttf package under its free licence:
 * Latin, Greek, Cyrillic, Hebrew and Arabic. Parsed once per process and shared by every render —
 * parsing the 740 kB file per document cost more than drawing a 10-line invoice.
 */
let shipped: { regular: Font; bold: Font } | undefined;

export function shippedFonts(): { regular: Font; bold: Font } {
  shipped ??= { regular: parseFile('DejaVuSans.ttf'), bold: parseFile('DejaVuSans-Bold.ttf') };
  return shipped;
}

function parseFile(name: string): Font {
  return fontkit.create(fs.readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${name}`))) as Font;
}

/**
 * A font file a company gives, checked: a single TrueType or OpenType font (not a collection) of
 * at most MAX_FONT_BYTES that maps some characters. Answers the reason it is refused, or the font.
 */
export function parseCompanyFont(bytes: Buffer): { font: Font } | { refused: string } {
  if (bytes.length === 0) return { refused: 'Please give a TrueType or OpenType font file, base64 encoded.' };
  if (bytes.length > MAX_FONT_BYTES) return { refused: `The font may be at most ${MAX_FONT_BYTES / 1024 / 1024} MB.` };
  const signature = bytes.subarray(0, 4).toString('latin1');
  if (!['\u0000\u0001\u0000\u0000', 'true', 'OTTO'].includes(signature)) return { refused: 'The file is not a TrueType or OpenType font.' };
  try {
    const font = fontkit.create(bytes);
    if (!('characterSet' in font) || font.characterSet.length === 0 || font.numGlyphs < 2) return { refused: 'The font maps no characters.' };
    // Lay out a character it maps: a font whose tables fontkit cannot read fails here, not in a render.
    font.layout(String.fromCodePoint(font.characterSet.find((c) => c > 32) ?? font.characterSet[0]));
    return { font };
  } catch {
    return { refused: 'The file is not a TrueType or OpenType font that can be read.' };
  }
}

/** Parsed company fonts by content hash: a company's font is read and parsed once per process, not per PDF. */
const companyFonts = new Map<string, Font>();
const COMPANY_FONT_CACHE = 8;

/**
 * The company's font with this hash, parsed; `read` gives its base64 content when this process has
 * not parsed it yet. Null when the stored file no longer matches its hash or cannot be parsed.
 */
export async function companyFont(sha256: string, read: () => Promise<string | undefined>): Promise<Font | null> {
  const cached = companyFonts.get(sha256);
  if (cached) return cached;
  const bytes = Buffer.from((await read()) ?? '', 'base64');
  if (createHash('sha256').update(bytes).digest('hex') !== sha256) return null;
  const parsed = parseCompanyFont(bytes);
  if (!('font' in parsed)) return null;
  if (companyFonts.size >= COMPANY_FONT_CACHE) companyFonts.delete(companyFonts.keys().next().value!);
  companyFonts.set(sha256, parsed.font);
  return parsed.font;
}
