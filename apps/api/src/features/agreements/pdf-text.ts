import { inflateSync } from 'node:zlib';

/**
 * The text lines a PDF written by this feature draws, in drawing order: each content stream is
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

/** Windows-1252 bytes to text (the standard fonts' encoding). */
function decodeWinAnsi(bytes: Buffer): string {
  return new TextDecoder('windows-1252').decode(bytes);
}
