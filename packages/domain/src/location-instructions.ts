/**
 * A location's pickup and return instructions, as rich text (decisions 039 and 088). Two lists:
 * what the console's editor writes and the API keeps when staff save them, and what the renter's
 * pages render (a little wider: instructions from the fleet's first data may hold headings or line
 * breaks). The console's preview sanitises with the renter's list, so it shows what renters see.
 */

/** What the API keeps of instructions staff save: paragraphs, bold, italics, lists and http(s) links. */
export const INSTRUCTIONS_STORED_TAGS = ['p', 'strong', 'em', 'ul', 'ol', 'li', 'a'] as const;
export const INSTRUCTIONS_STORED_ATTRIBUTES = { a: ['href'] } as const;
export const INSTRUCTIONS_STORED_SCHEMES = ['http', 'https'] as const;

/** What the renter's pages render of a location's instructions; everything else is dropped. */
export const INSTRUCTIONS_SHOWN_TAGS = [
  'p',
  'br',
  'strong',
  'b',
  'em',
  'i',
  'u',
  'ul',
  'ol',
  'li',
  'a',
  'h3',
  'h4',
  'span',
] as const;
export const INSTRUCTIONS_SHOWN_ATTRIBUTES = ['href', 'title'] as const;
/** Links the renter's pages keep: the web, a phone or an email address, or a page of this site. */
export const INSTRUCTIONS_SHOWN_LINKS = /^(?:(?:https?|mailto|tel):|\/(?!\/))/i;
