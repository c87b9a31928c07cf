import { PDFDocument, type PDFFont, type PDFPage, type RGB, StandardFonts, rgb } from 'pdf-lib';

/**
 * A small top-to-bottom text layout on US Letter pages: wrapped paragraphs, label/value rows,
 * amount rows and rules, with a new page when the current one is full. The standard PDF fonts
 * keep the text extractable (copy, search, screen readers) without embedding a font file.
 */

const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;
const MARGIN = 54;
/** Room kept at the bottom of each page for the footer. */
const FOOTER_SPACE = 40;

export const INK = rgb(0.1, 0.11, 0.13);
export const MUTED = rgb(0.4, 0.43, 0.48);
const RULE = rgb(0.82, 0.84, 0.87);

export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  italic: PDFFont;
  signature: PDFFont;
}

/**
 * A new document carrying only the metadata we set: no library name and no machine clock, so the
 * same input gives the same bytes.
 */
export async function newDocument(meta: { productName: string; title: string; subject: string; at: Date }): Promise<PDFDocument> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(meta.title);
  doc.setAuthor(meta.productName);
  doc.setSubject(meta.subject);
  doc.setCreator(meta.productName);
  doc.setProducer(meta.productName);
  doc.setLanguage('en-US');
  doc.setCreationDate(meta.at);
  doc.setModificationDate(meta.at);
  return doc;
}

export async function embedFonts(doc: PDFDocument): Promise<Fonts> {
  return {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    italic: await doc.embedFont(StandardFonts.HelveticaOblique),
    signature: await doc.embedFont(StandardFonts.TimesRomanItalic),
  };
}

/** Letters the standard fonts cannot show, spelled with the nearest ones they can. */
const NEAREST: Record<string, string> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', Ħ: 'H', ħ: 'h', ı: 'i', Ŀ: 'L', ŀ: 'l', '\u2212': '-', '\u2010': '-', '\u2011': '-' };

/**
 * The standard fonts cover Windows-1252 only. A name such as 'Łukasz' or 'Nguyễn' is written
 * with the nearest letters ('Lukasz', 'Nguyen'); anything else becomes '?'. The exact text is
 * kept in the database beside the document.
 */
export function writable(font: PDFFont, text: string): string {
  const supported = supportedCodePoints(font);
  let out = '';
  for (const ch of text.replace(/[\t\r\n]+/g, ' ')) {
    if (supported.has(ch.codePointAt(0)!)) {
      out += ch;
      continue;
    }
    const near = NEAREST[ch] ?? ch.normalize('NFD').replace(/\p{M}/gu, '');
    out += [...near].every((c) => supported.has(c.codePointAt(0)!)) && near.length > 0 ? near : '?';
  }
  return out;
}

const charsets = new WeakMap<PDFFont, Set<number>>();
function supportedCodePoints(font: PDFFont): Set<number> {
  let set = charsets.get(font);
  if (!set) {
    set = new Set(font.getCharacterSet());
    charsets.set(font, set);
  }
  return set;
}

/** Lines of at most `width` points; a word longer than a line is cut where it must be. */
export function wrap(font: PDFFont, size: number, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= width) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = word;
    while (font.widthOfTextAtSize(line, size) > width) {
      let cut = line.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut--;
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
    }
  }
  if (line) lines.push(line);
  return lines.length > 0 ? lines : [''];
}

export interface TextStyle {
  font?: PDFFont;
  size?: number;
  color?: RGB;
  /** Left edge, from the left margin. */
  indent?: number;
  /** Space between lines, as a multiple of the size. */
  leading?: number;
}

export class Layout {
  readonly pages: PDFPage[] = [];
  readonly left = MARGIN;
  readonly right = PAGE_WIDTH - MARGIN;
  readonly width = PAGE_WIDTH - 2 * MARGIN;
  private page!: PDFPage;
  private y = 0;

  constructor(
    private readonly doc: PDFDocument,
    readonly fonts: Fonts,
  ) {
    this.newPage();
  }

  private newPage(): void {
    this.page = this.doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    this.pages.push(this.page);
    this.y = PAGE_HEIGHT - MARGIN;
  }

  /** Starts a new page unless `height` points still fit on this one. */
  keep(height: number): void {
    if (this.y - height < MARGIN + FOOTER_SPACE) this.newPage();
  }

  gap(points: number): void {
    this.y -= points;
  }

  /** A wrapped paragraph. */
  text(text: string, style: TextStyle = {}): void {
    const font = style.font ?? this.fonts.regular;
    const size = style.size ?? 10;
    const indent = style.indent ?? 0;
    const step = size * (style.leading ?? 1.35);
    for (const line of wrap(font, size, writable(font, text), this.width - indent)) {
      this.keep(step);
      this.y -= step;
      this.page.drawText(line, { x: this.left + indent, y: this.y + size * 0.25, font, size, color: style.color ?? INK });
    }
  }

  /** A bold section heading with a rule under it, kept on one page with `keepWith` points of what follows. */
  heading(text: string, keepWith = 45): void {
    this.keep(keepWith + 30);
    this.gap(10);
    this.text(text, { font: this.fonts.bold, size: 11.5 });
    this.gap(3);
    this.rule();
    this.gap(3);
  }

  rule(): void {
    this.page.drawLine({ start: { x: this.left, y: this.y }, end: { x: this.right, y: this.y }, thickness: 0.6, color: RULE });
  }

  /** 'Label      value that wraps under itself'. */
  field(label: string, value: string, labelWidth = 112): void {
    const size = 9.5;
    const step = size * 1.4;
    const lines = wrap(this.fonts.regular, size, writable(this.fonts.regular, value), this.width - labelWidth);
    this.keep(step * Math.min(lines.length, 3));
    this.page.drawText(writable(this.fonts.bold, label), { x: this.left, y: this.y - step + size * 0.25, font: this.fonts.bold, size, color: MUTED });
    for (const line of lines) {
      this.keep(step);
      this.y -= step;
      this.page.drawText(line, { x: this.left + labelWidth, y: this.y + size * 0.25, font: this.fonts.regular, size, color: INK });
    }
  }

  /** A line item: description on the left, amount right-aligned. */
  amountRow(description: string, amount: string, opts: { bold?: boolean } = {}): void {
    const font = opts.bold ? this.fonts.bold : this.fonts.regular;
    const size = 9.5;
    const step = size * 1.45;
    const amountWidth = font.widthOfTextAtSize(amount, size);
    const lines = wrap(font, size, writable(font, description), this.width - amountWidth - 24);
    lines.forEach((line, i) => {
      this.keep(step);
      this.y -= step;
      this.page.drawText(line, { x: this.left, y: this.y + size * 0.25, font, size, color: INK });
      if (i === 0) this.page.drawText(amount, { x: this.right - amountWidth, y: this.y + size * 0.25, font, size, color: INK });
    });
  }

  /** Writes the same footer on every page, with 'Page n of N'. */
  footer(text: (page: number, pages: number) => string): void {
    const size = 7.5;
    this.pages.forEach((page, i) => {
      const line = writable(this.fonts.regular, text(i + 1, this.pages.length));
      page.drawLine({ start: { x: this.left, y: MARGIN + 12 }, end: { x: this.right, y: MARGIN + 12 }, thickness: 0.6, color: RULE });
      page.drawText(line, { x: this.left, y: MARGIN, font: this.fonts.regular, size, color: MUTED });
    });
  }

  /** Draws text at the current line without moving down (for a title beside another). */
  drawRight(text: string, font: PDFFont, size: number, color: RGB = INK): void {
    const line = writable(font, text);
    this.page.drawText(line, { x: this.right - font.widthOfTextAtSize(line, size), y: this.y + size * 0.25, font, size, color });
  }
}
