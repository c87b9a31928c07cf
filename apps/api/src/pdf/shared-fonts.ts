import PDFDocument from 'pdfkit';

/**
 * What laying out a PDF's text costs, done once for the process rather than once a document
 * (decision 064: signing an agreement is CPU-bound). An agreement's headings and terms are the same
 * words every time, in three standard fonts; the library parses each font's metrics (its widths and
 * some 2,700 kerning pairs) when a document first uses it, and measures and encodes every line glyph
 * by glyph, kerning pair by kerning pair. The same font, size and text always give the same width and
 * the same glyph codes, so what is kept here is exactly what the library would work out again, and
 * the bytes of a document do not change (the agreements' tests pin them).
 */

type Pdf = InstanceType<typeof PDFDocument>;
type Encode = (text: string, features?: unknown) => unknown;

/**
 * How many widths, and how many encoded lines per font, are kept: past either limit, all of that
 * kind are dropped and worked out again as documents need them, so a long-running process's memory
 * stays bounded (some 2 MB of widths; an encoded line is about 10 kB, so some 10 MB of lines a font).
 * An agreement measures a few thousand strings and draws some 150 lines, most of them the same in
 * every agreement; what is its own (names, trip, dates) is a few hundred widths and a few dozen lines.
 */
const WIDTHS_KEPT = 20_000;
const LINES_KEPT = 1_000;

const widths = new Map<string, Map<number, Map<string, number>>>();
let widthsKept = 0;

/** The widths measured in `font` at `size`, by text, shared by every document. */
export function widthsIn(font: string, size: number): Map<string, number> {
  let bySize = widths.get(font);
  if (!bySize) widths.set(font, (bySize = new Map()));
  let byText = bySize.get(size);
  if (!byText) bySize.set(size, (byText = new Map()));
  return byText;
}

/** Keeps a width measured in `font` at `size` (from `widthsIn`). */
export function keepWidth(byText: Map<string, number>, text: string, width: number): void {
  if (++widthsKept > WIDTHS_KEPT) {
    widths.clear();
    widthsKept = 1;
  }
  byText.set(text, width);
}

/**
 * This reaches past the library's API (pdfkit 0.20). `font(name)` first takes the font the
 * document's `_fontFamilies` holds under that name, and otherwise opens one, naming it `F` and the
 * count `_fontCount` after it. `openFont` does what it would, with a copy of a font opened once in a
 * scratch document and never drawn: the copy's metrics are the parsed ones, shared (the library only
 * reads them), and its document and name are this document's, so the document writes the same
 * resources as with a font of its own. A copy's `encode` keeps each line's glyph codes and advances
 * for the next document (the library only reads those too). Should those fields ever be missing,
 * `openFont` leaves the font to the library.
 */
interface OpenFonts {
  _fontFamilies?: Record<string, object>;
  _fontCount?: number;
  _font?: { encode?: Encode };
}

interface Template {
  font: object;
  encode: Encode;
}

/** The fonts every PDF reader has, which the library measures from metrics it carries. */
const STANDARD = new Set([
  'Courier',
  'Courier-Bold',
  'Courier-BoldOblique',
  'Courier-Oblique',
  'Helvetica',
  'Helvetica-Bold',
  'Helvetica-BoldOblique',
  'Helvetica-Oblique',
  'Symbol',
  'Times-Bold',
  'Times-BoldItalic',
  'Times-Italic',
  'Times-Roman',
  'ZapfDingbats',
]);
const templates = new Map<string, Template>();
let scratch: Pdf | null = null;

function template(name: string): Template | null {
  const known = templates.get(name);
  if (known) return known;
  scratch ??= new PDFDocument({ autoFirstPage: false });
  const font = (scratch.font(name) as unknown as OpenFonts)._font;
  const encode = font?.encode;
  if (!font || typeof encode !== 'function') return null;
  const encodings = new Map<string, unknown>();
  const made: Template = {
    font,
    encode(this: object, text: string, features?: unknown) {
      if (features) return encode.call(this, text, features);
      let encoded = encodings.get(text);
      if (encoded === undefined) {
        encoded = encode.call(this, text);
        if (encodings.size >= LINES_KEPT) encodings.clear();
        encodings.set(text, encoded);
      }
      return encoded;
    },
  };
  templates.set(name, made);
  return made;
}

/**
 * Opens the standard font `name` in `doc` as `doc.font(name)` would, unless it is open already;
 * any other font is left to the library.
 */
export function openFont(doc: Pdf, name: string): void {
  const fonts = doc as unknown as OpenFonts;
  if (!STANDARD.has(name) || typeof fonts._fontCount !== 'number' || !fonts._fontFamilies) return;
  if (name in fonts._fontFamilies) return;
  const shared = template(name);
  if (!shared) return;
  fonts._fontFamilies[name] = Object.assign(
    Object.create(Object.getPrototypeOf(shared.font) as object) as object,
    shared.font,
    {
      document: doc,
      id: `F${++fonts._fontCount}`,
      encode: shared.encode,
    },
  );
}
