/**
 * Windows-1252 ("WinAnsiEncoding"), the encoding of the standard PDF fonts' text: ASCII, Latin-1's
 * 0xA0–0xFF, and in 0x80–0x9F the dashes, quotes, euro and a few letters below (0x81, 0x8D, 0x8F,
 * 0x90 and 0x9D are unassigned, kept as their Latin-1 control characters).
 */
const HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';
const UNASSIGNED = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

/** The characters the standard fonts can show, by code point. */
export const WIN_ANSI_CODE_POINTS: ReadonlySet<number> = new Set([
  ...Array.from({ length: 0x7f - 0x20 }, (_, i) => 0x20 + i),
  ...Array.from({ length: 0x100 - 0xa0 }, (_, i) => 0xa0 + i),
  ...[...HIGH].filter((_, i) => !UNASSIGNED.has(0x80 + i)).map((c) => c.codePointAt(0)!),
]);

/** Windows-1252 bytes to text. */
export function decodeWinAnsi(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b >= 0x80 && b <= 0x9f ? HIGH[b - 0x80] : String.fromCharCode(b);
  return out;
}
