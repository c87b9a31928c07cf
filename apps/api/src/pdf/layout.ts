import PDFDocument from 'pdfkit';
import { keepWidth, openFont, widthsIn } from './shared-fonts.ts';
import { WIN_ANSI_CODE_POINTS } from './win-ansi.ts';

/**
 * A small top-to-bottom text layout on US Letter pages: wrapped paragraphs, label/value rows,
 * amount rows and rules, with a new page when the current one is full. The standard PDF fonts
 * keep the text extractable (copy, search, screen readers) without embedding a font file.
 *
 * The document is tagged (decision 041): a structure tree gives screen readers the reading order
 * and what each piece is (H1 title, H2 section headings, P paragraphs and rows); rules and the
 * page footers are marked as artifacts, which assistive technology skips. It declares its language
 * and asks viewers to show its title rather than its file name.
 */

const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;
const MARGIN = 54;
/** Room kept at the bottom of each page for the footer. */
const FOOTER_SPACE = 40;

/** Colours as 0–255 RGB. */
export type Colour = [number, number, number];
export const INK: Colour = [26, 28, 33];
export const MUTED: Colour = [102, 110, 122];
const RULE: Colour = [209, 214, 222];

/** The standard PDF fonts the documents use, by their PostScript names. */
export interface Fonts {
  regular: string;
  bold: string;
  italic: string;
  signature: string;
}
const FONTS: Fonts = {
  regular: 'Helvetica',
  bold: 'Helvetica-Bold',
  italic: 'Helvetica-Oblique',
  signature: 'Times-Italic',
};

type Role = 'H1' | 'H2' | 'P';
type Pdf = InstanceType<typeof PDFDocument>;
type Structure = ReturnType<Pdf['struct']>;

/** Letters the standard fonts cannot show, spelled with the nearest ones they can. */
const NEAREST: Record<string, string> = {
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
  Ŀ: 'L',
  ŀ: 'l',
  '\u2212': '-',
  '\u2010': '-',
  '\u2011': '-',
  // The receipt's deposit story steps with an arrow, which the standard fonts lack.
  '\u2192': '->',
};
const canShow = (ch: string) => WIN_ANSI_CODE_POINTS.has(ch.codePointAt(0)!);

/**
 * The standard fonts cover Windows-1252 only. A name such as 'Łukasz' or 'Nguyễn' is written
 * with the nearest letters ('Lukasz', 'Nguyen'); anything else becomes '?'. The exact text is
 * kept in the database beside the document.
 */
export function writable(text: string): string {
  let out = '';
  for (const ch of text.replace(/[\t\r\n]+/g, ' ')) {
    if (canShow(ch)) {
      out += ch;
      continue;
    }
    const near = NEAREST[ch] ?? ch.normalize('NFD').replace(/\p{M}/gu, '');
    out += [...near].every(canShow) && near.length > 0 ? near : '?';
  }
  return out;
}

/**
 * Paragraphs already wrapped, by font, size, width and text, for every document this process lays
 * out (`Layout.wrap`). Bounded: past the limit all are dropped and wrapped again as documents need them.
 */
const paragraphs = new Map<string, readonly string[]>();
const PARAGRAPHS_KEPT = 2_000;

export interface TextStyle {
  font?: string;
  size?: number;
  color?: Colour;
  /** Left edge, from the left margin. */
  indent?: number;
  /** Space between lines, as a multiple of the size. */
  leading?: number;
  /** What the paragraph is to a screen reader; a paragraph unless said. */
  role?: Role;
}

export class Layout {
  readonly left = MARGIN;
  readonly right = PAGE_WIDTH - MARGIN;
  readonly width = PAGE_WIDTH - 2 * MARGIN;
  readonly fonts = FONTS;
  private readonly doc: Pdf;
  private readonly root: Structure;
  private readonly chunks: Uint8Array[] = [];
  private readonly done: Promise<void>;
  /** Distance of the current line from the top of the page. */
  private y = 0;
  /** The widths measured in the font and size set last (`use`), by text. */
  private widths: Map<string, number> | null = null;

  /**
   * A new document carrying only the metadata we set: no library name and no machine clock, so the
   * same input gives the same bytes.
   */
  constructor(meta: { productName: string; title: string; subject: string; at: Date }) {
    this.doc = new PDFDocument({
      autoFirstPage: false,
      // Kept in memory until the end, so that each page's footer can say how many pages there are.
      bufferPages: true,
      pdfVersion: '1.7',
      tagged: true,
      lang: 'en-US',
      displayTitle: true,
      // The library would open Helvetica here, parsing its metrics for this document alone: it is
      // opened below instead, first as here, with the metrics every document shares.
      font: '',
      info: {
        Title: meta.title,
        Author: meta.productName,
        Subject: meta.subject,
        Creator: meta.productName,
        Producer: meta.productName,
        CreationDate: meta.at,
        ModDate: meta.at,
      },
    });
    // Every width goes through this method: the layout's own, and the two the library takes of each
    // line it draws (to move past it, and for underlines and links this layout does not draw). Each is
    // kept for every later document (./shared-fonts.ts), unless spacing options change it.
    const measureAnew = this.doc.widthOfString.bind(this.doc);
    this.doc.widthOfString = (text, options = {}) => {
      const spaced = options as { characterSpacing?: number; horizontalScaling?: number; features?: unknown };
      if (!this.widths || spaced.characterSpacing || spaced.horizontalScaling || spaced.features) {
        return measureAnew(text, options);
      }
      let width = this.widths.get(text);
      if (width === undefined) {
        width = measureAnew(text, options);
        keepWidth(this.widths, text, width);
      }
      return width;
    };
    openFont(this.doc, FONTS.regular);
    this.doc.font(FONTS.regular);
    this.doc.on('data', (chunk: Uint8Array) => this.chunks.push(chunk));
    this.done = new Promise((resolve, reject) => {
      this.doc.on('end', resolve);
      this.doc.on('error', reject);
    });
    this.root = this.doc.struct('Document');
    this.doc.addStructure(this.root);
    this.newPage();
  }

  private newPage(): void {
    // No margins of the library's own: this layout decides where every line goes and when a page is full.
    this.doc.addPage({ size: [PAGE_WIDTH, PAGE_HEIGHT], margin: 0 });
    this.y = MARGIN;
  }

  /** Sets the font and size that what is measured or drawn next uses. */
  private use(font: string, size: number): Pdf {
    openFont(this.doc, font);
    this.widths = widthsIn(font, size);
    return this.doc.font(font).fontSize(size);
  }

  private measure(font: string, size: number, text: string): number {
    return this.use(font, size).widthOfString(text);
  }

  /**
   * Lines of at most `width` points; a word longer than a line is cut where it must be. The same
   * paragraph in the same font, size and width always breaks the same way, and an agreement's terms
   * are the same paragraphs every time, so the lines are kept for the next document (`paragraphs`).
   */
  wrap(font: string, size: number, text: string, width: number): readonly string[] {
    const key = `${font}\n${size}\n${width}\n${text}`;
    let lines = paragraphs.get(key);
    if (!lines) {
      lines = this.breakLines(font, size, text, width);
      if (paragraphs.size >= PARAGRAPHS_KEPT) paragraphs.clear();
      paragraphs.set(key, lines);
    }
    return lines;
  }

  /**
   * `wrap`'s lines, worked out. A line's width grows word by word: the width of `line word` is the
   * line's, plus ` word`'s, plus the kerning between the line's last character and the space, so no
   * line is measured again from its start for each word it takes (decision 064: that made signing an
   * agreement CPU-bound).
   */
  private breakLines(font: string, size: number, text: string, width: number): readonly string[] {
    const fits = (s: string) => this.measure(font, size, s) <= width;
    const space = this.measure(font, size, ' ');
    const lines: string[] = [];
    let line = '';
    let lineWidth = 0;
    for (const word of text.split(/\s+/).filter(Boolean)) {
      let candidateWidth: number;
      if (line) {
        const last = line[line.length - 1]!;
        const kern = this.measure(font, size, `${last} `) - this.measure(font, size, last) - space;
        candidateWidth = lineWidth + kern + this.measure(font, size, ` ${word}`);
      } else {
        candidateWidth = this.measure(font, size, word);
      }
      if (candidateWidth <= width) {
        line = line ? `${line} ${word}` : word;
        lineWidth = candidateWidth;
        continue;
      }
      if (line) lines.push(line);
      line = word;
      while (!fits(line)) {
        let cut = line.length - 1;
        while (cut > 1 && !fits(line.slice(0, cut))) cut--;
        lines.push(line.slice(0, cut));
        line = line.slice(cut);
      }
      lineWidth = this.measure(font, size, line);
    }
    if (line) lines.push(line);
    return lines.length > 0 ? lines : [''];
  }

  /** Draws one line with its baseline `baseline` points from the top of the page. */
  private draw(text: string, x: number, baseline: number, font: string, size: number, color: Colour): void {
    this.use(font, size).fillColor(color).text(text, x, baseline, { lineBreak: false, baseline: 'alphabetic' });
  }

  /** A structure element of the document; its content is added piece by piece with `mark`. */
  private element(role: Role): Structure {
    const element = this.doc.struct(role);
    this.root.add(element);
    return element;
  }

  /** Marks what `draw` puts on the current page as content of `element`. */
  private mark(element: Structure, draw: () => void): void {
    element.add(draw);
  }

  /** Decoration a screen reader skips: rules and footers. */
  private artifact(type: 'Layout' | 'Pagination', draw: () => void): void {
    this.doc.markContent('Artifact', { type });
    draw();
    this.doc.endMarkedContent();
  }

  /** Starts a new page unless `height` points still fit on this one. */
  keep(height: number): void {
    if (this.y + height > PAGE_HEIGHT - MARGIN - FOOTER_SPACE) this.newPage();
  }

  gap(points: number): void {
    this.y += points;
  }

  /**
   * A wrapped paragraph. Each line but the last keeps the space it was broken at, so that text read
   * out of the document (by a screen reader, or copied) does not run the words of two lines together.
   */
  text(text: string, style: TextStyle = {}): void {
    const font = style.font ?? FONTS.regular;
    const size = style.size ?? 10;
    const indent = style.indent ?? 0;
    const step = size * (style.leading ?? 1.35);
    const element = this.element(style.role ?? 'P');
    const lines = this.wrap(font, size, writable(text), this.width - indent);
    lines.forEach((line, i) => {
      this.keep(step);
      this.y += step;
      const baseline = this.y - size * 0.25;
      this.mark(element, () =>
        this.draw(
          i < lines.length - 1 ? `${line} ` : line,
          this.left + indent,
          baseline,
          font,
          size,
          style.color ?? INK,
        ),
      );
    });
    element.end();
  }

  /** A bold section heading with a rule under it, kept on one page with `keepWith` points of what follows. */
  heading(text: string, keepWith = 45): void {
    this.keep(keepWith + 30);
    this.gap(10);
    this.text(text, { font: FONTS.bold, size: 11.5, role: 'H2' });
    this.gap(3);
    this.rule();
    this.gap(3);
  }

  rule(): void {
    const y = this.y;
    this.artifact('Layout', () =>
      this.doc.moveTo(this.left, y).lineTo(this.right, y).lineWidth(0.6).strokeColor(RULE).stroke(),
    );
  }

  /** 'Label      value that wraps under itself', one paragraph to a screen reader. */
  field(label: string, value: string, labelWidth = 112): void {
    const size = 9.5;
    const step = size * 1.4;
    const lines = this.wrap(FONTS.regular, size, writable(value), this.width - labelWidth);
    this.keep(step * Math.min(lines.length, 3));
    const element = this.element('P');
    const labelBaseline = this.y + step - size * 0.25;
    this.mark(element, () => this.draw(`${writable(label)} `, this.left, labelBaseline, FONTS.bold, size, MUTED));
    lines.forEach((line, i) => {
      this.keep(step);
      this.y += step;
      const baseline = this.y - size * 0.25;
      this.mark(element, () =>
        this.draw(i < lines.length - 1 ? `${line} ` : line, this.left + labelWidth, baseline, FONTS.regular, size, INK),
      );
    });
    element.end();
  }

  /** A line item: description on the left, amount right-aligned; one paragraph to a screen reader. */
  amountRow(description: string, amount: string, opts: { bold?: boolean } = {}): void {
    const font = opts.bold ? FONTS.bold : FONTS.regular;
    const size = 9.5;
    const step = size * 1.45;
    const amountWidth = this.measure(font, size, amount);
    const lines = this.wrap(font, size, writable(description), this.width - amountWidth - 24);
    const element = this.element('P');
    lines.forEach((line, i) => {
      this.keep(step);
      this.y += step;
      const baseline = this.y - size * 0.25;
      this.mark(element, () => this.draw(`${line} `, this.left, baseline, font, size, INK));
      if (i === 0) this.mark(element, () => this.draw(amount, this.right - amountWidth, baseline, font, size, INK));
    });
    element.end();
  }

  /** Draws text at the current line without moving down (for a title beside another), as the document's H1. */
  drawRight(text: string, font: string, size: number, color: Colour = INK): void {
    const line = writable(text);
    const baseline = this.y - size * 0.25;
    const element = this.element('H1');
    this.mark(element, () => this.draw(line, this.right - this.measure(font, size, line), baseline, font, size, color));
    element.end();
  }

  /** Writes the same footer on every page, with 'Page n of N', then the document's bytes. */
  async finish(footer: (page: number, pages: number) => string): Promise<Uint8Array> {
    const size = 7.5;
    const { start, count } = this.doc.bufferedPageRange();
    for (let i = start; i < start + count; i++) {
      this.doc.switchToPage(i);
      const line = writable(footer(i - start + 1, count));
      const ruleY = PAGE_HEIGHT - MARGIN - 12;
      this.artifact('Pagination', () => {
        this.doc.moveTo(this.left, ruleY).lineTo(this.right, ruleY).lineWidth(0.6).strokeColor(RULE).stroke();
        this.draw(line, this.left, PAGE_HEIGHT - MARGIN, FONTS.regular, size, MUTED);
      });
    }
    this.root.end();
    this.doc.end();
    await this.done;
    return Buffer.concat(this.chunks);
  }
}
