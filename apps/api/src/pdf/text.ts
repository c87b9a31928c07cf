import { inflateSync } from 'node:zlib';
import { decodeWinAnsi } from './win-ansi.ts';

/**
 * The text lines a PDF written with ./layout.ts draws, in drawing order: each content stream is
 * inflated and its text-showing operators decoded — `<hex> Tj`, and `[<hex> kerning <hex> …] TJ`
 * (the layout draws each line with one call, which the PDF library writes as one TJ array with
 * kerning between the pieces). Not a general PDF reader: it lets tests check what a renter would
 * read without a PDF tool installed.
 */
export function pdfTextLines(pdf: Uint8Array): string[] {
  const raw = Buffer.from(pdf);
  const latin = raw.toString('latin1');
  const lines: string[] = [];
  const streamStart = /stream\r?\n/g;
  for (let m = streamStart.exec(latin); m; m = streamStart.exec(latin)) {
    if (latin.slice(Math.max(0, m.index - 3), m.index) === 'end') continue;
    const dict = latin.slice(Math.max(0, m.index - 300), m.index);
    const length = [...dict.matchAll(/\/Length (\d+)/g)].at(-1);
    if (!length) continue;
    const start = m.index + m[0].length;
    const body = raw.subarray(start, start + Number(length[1]));
    let content: string;
    try {
      content = /\/FlateDecode/.test(dict.slice(dict.lastIndexOf('<<')))
        ? inflateSync(body).toString('latin1')
        : body.toString('latin1');
    } catch {
      continue;
    }
    for (const op of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj|\[((?:\s*(?:<[0-9A-Fa-f]*>|-?[\d.]+))*)\s*\]\s*TJ/g)) {
      const hex = op[1] ?? [...op[2]!.matchAll(/<([0-9A-Fa-f]*)>/g)].map((h) => h[1]).join('');
      lines.push(decodeWinAnsi(Buffer.from(hex, 'hex')));
    }
    streamStart.lastIndex = start + Number(length[1]);
  }
  return lines;
}

/** What a screen reader or a PDF checker looks for first in a tagged document, read from its objects. */
export interface PdfTagging {
  /** The catalog points to a structure tree (/StructTreeRoot). */
  hasStructureTree: boolean;
  /** /MarkInfo << /Marked true >>: the content is marked against that tree. */
  isMarked: boolean;
  /** The catalog's /Lang. */
  lang: string | null;
  /** The document information's /Title. */
  title: string | null;
  /** /ViewerPreferences << /DisplayDocTitle true >>: viewers show the title, not the file name. */
  displaysTitle: boolean;
  /** The structure elements' types (/S), in the order their objects are written (not reading order). */
  structureTypes: string[];
}

/** Reads the tagging facts of a PDF written with ./layout.ts (its objects are not compressed; only page content is). */
export function pdfTagging(pdf: Uint8Array): PdfTagging {
  const text = Buffer.from(pdf).toString('latin1');
  const object = (n: string) => new RegExp(`(?:^|\\n)${n} 0 obj\\n([^]*?)\\nendobj`).exec(text)?.[1] ?? '';
  const literal = (value: string | undefined) => value?.replace(/\\([()\\])/g, '$1') ?? null;
  const catalog = /<<\n\/Type \/Catalog\n([^]*?)\n>>/.exec(text)?.[1] ?? '';
  const info = object(/\/Info (\d+) 0 R/.exec(text)?.[1] ?? '-');
  const titleRef = /\/Title (\d+) 0 R/.exec(info)?.[1];
  const title = titleRef ? /^\((.*)\)$/s.exec(object(titleRef))?.[1] : /\/Title \((.*?)\)\n/.exec(info)?.[1];
  const markInfo = object(/\/MarkInfo (\d+) 0 R/.exec(catalog)?.[1] ?? '-') || catalog;
  const preferences = object(/\/ViewerPreferences (\d+) 0 R/.exec(catalog)?.[1] ?? '-');
  return {
    hasStructureTree: /\/StructTreeRoot \d+ 0 R/.test(catalog),
    isMarked: /\/Marked true/.test(markInfo),
    lang: literal(/\/Lang \((.*?)\)/.exec(catalog)?.[1]),
    title: literal(title),
    displaysTitle: /\/DisplayDocTitle true/.test(preferences),
    structureTypes: [...text.matchAll(/\n\/S \/(\w+)\n/g)].map((m) => m[1]!),
  };
}
