import DOMPurify from 'dompurify';

/**
 * What a location's pickup and return instructions may hold (decision 039): paragraphs, line
 * breaks, emphasis, lists, small headings and links. Everything else — scripts, styles, frames,
 * forms, images, event handlers, `javascript:` and `data:` links — is dropped before rendering.
 */
const ALLOWED_TAGS = ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 'ul', 'ol', 'li', 'a', 'h3', 'h4', 'span'];
const ALLOWED_ATTR = ['href', 'title'];
/** Links go to the web, a phone or an email address, or a page of this site. */
const ALLOWED_URI_REGEXP = /^(?:(?:https?|mailto|tel):|\/(?!\/))/i;

/** The instructions' HTML with only the allowed tags, attributes and links kept. */
export function sanitizeInstructionsHtml(html: string): string {
  return DOMPurify.sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR, ALLOWED_URI_REGEXP });
}
