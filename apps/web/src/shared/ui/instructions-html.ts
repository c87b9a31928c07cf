import DOMPurify from 'dompurify';
import {
  INSTRUCTIONS_SHOWN_ATTRIBUTES,
  INSTRUCTIONS_SHOWN_LINKS,
  INSTRUCTIONS_SHOWN_TAGS,
} from '@ampere/domain/location-instructions';

/**
 * What a location's pickup and return instructions may hold (decision 039): paragraphs, line
 * breaks, emphasis, lists, small headings and links. Everything else — scripts, styles, frames,
 * forms, images, event handlers, `javascript:` and `data:` links — is dropped before rendering.
 * The console's preview sanitises with the same lists (decision 088).
 */
export function sanitizeInstructionsHtml(html: string): string {
  return DOMPurify.sanitize(html, {
    ALLOWED_TAGS: [...INSTRUCTIONS_SHOWN_TAGS],
    ALLOWED_ATTR: [...INSTRUCTIONS_SHOWN_ATTRIBUTES],
    ALLOWED_URI_REGEXP: INSTRUCTIONS_SHOWN_LINKS,
  });
}
