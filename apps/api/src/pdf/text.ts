import { inflateSync } from 'node:zlib';

/**
 * The text lines a PDF written with ./layout.ts draws, in drawing order: each content stream is
 * inflated and its `<hex> Tj` strings decoded (pdf-lib writes standard-font text that way). Not a
 * general PDF reader: it lets tests check what a renter would read without a PDF tool installed.
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
      content = /\/FlateDecode/.test(dict.slice(dict.lastIndexOf('<<'))) ? inflateSync(body).toString('latin1') : body.toString('latin1');
    } catch {
      continue;
    }
    for (const tj of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) lines.push(decodeWinAnsi(Buffer.from(tj[1]!, 'hex')));
    streamStart.lastIndex = start + Number(length[1]);
  }
  return lines;
}

/**
 * Windows-1252's 0x80–0x9F (dashes, quotes, the euro…), which Node's TextDecoder reads as Latin-1
 * control characters; 0x81, 0x8D, 0x8F, 0x90 and 0x9D are unassigned.
 */
const CP1252_HIGH = '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/** Windows-1252 bytes to text (the standard fonts' encoding). */
function decodeWinAnsi(bytes: Buffer): string {
  let out = '';
  for (const b of bytes) out += b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80] : String.fromCharCode(b);
  return out;
}
