import { describe, expect, it } from 'vitest';
import {
  INSTRUCTIONS_SHOWN_ATTRIBUTES,
  INSTRUCTIONS_SHOWN_LINKS,
  INSTRUCTIONS_SHOWN_TAGS,
  INSTRUCTIONS_STORED_ATTRIBUTES,
  INSTRUCTIONS_STORED_SCHEMES,
  INSTRUCTIONS_STORED_TAGS,
} from './location-instructions.ts';

describe('location instructions', () => {
  it('rule (decision 088): everything the API keeps of saved instructions, the renter pages show', () => {
    for (const tag of INSTRUCTIONS_STORED_TAGS) expect(INSTRUCTIONS_SHOWN_TAGS as readonly string[]).toContain(tag);
    for (const attribute of INSTRUCTIONS_STORED_ATTRIBUTES.a)
      expect(INSTRUCTIONS_SHOWN_ATTRIBUTES as readonly string[]).toContain(attribute);
    for (const scheme of INSTRUCTIONS_STORED_SCHEMES)
      expect(INSTRUCTIONS_SHOWN_LINKS.test(`${scheme}://example.com/lot`)).toBe(true);
  });

  it('rule (decision 039): renter pages keep web, phone, email and same-site links, not scripts or other sites by //', () => {
    for (const ok of ['https://a.example', 'http://a.example', 'tel:+16155550100', 'mailto:desk@example.com', '/trips'])
      expect(INSTRUCTIONS_SHOWN_LINKS.test(ok), ok).toBe(true);
    for (const bad of ['javascript:alert(1)', 'data:text/html,x', '//evil.example', 'ftp://a.example'])
      expect(INSTRUCTIONS_SHOWN_LINKS.test(bad), bad).toBe(false);
  });
});
