// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { sanitizeInstructionsHtml } from './instructions-html.ts';

/** Decision 039: a location's instructions are its own HTML, rendered only after an allow-list. */
describe('location instructions HTML', () => {
  it('keeps what instructions are written with: paragraphs, emphasis, lists, breaks and ordinary links', () => {
    const html =
      '<p>Park on <strong>level 2</strong>, <em>row B</em>.<br>Call <a href="tel:+16155550142">the lot</a> or see <a href="https://maps.example/lot">the map</a>.</p><ul><li>Unplug</li><li>Lock</li></ul>';
    expect(sanitizeInstructionsHtml(html)).toBe(html);
  });

  it('drops scripts, with their content', () => {
    expect(sanitizeInstructionsHtml('<p>Level 2</p><script>fetch("/steal?c="+document.cookie)</script>')).toBe(
      '<p>Level 2</p>',
    );
  });

  it('drops event handlers and the elements that carry them when not allowed', () => {
    expect(sanitizeInstructionsHtml('<img src="x" onerror="alert(1)"><p onclick="alert(2)">Gate B</p>')).toBe(
      '<p>Gate B</p>',
    );
    expect(sanitizeInstructionsHtml('<svg onload="alert(1)"><circle r="1"></circle></svg>Bay 4')).toBe('Bay 4');
  });

  it('drops javascript: and data: links but keeps their text', () => {
    expect(sanitizeInstructionsHtml('<a href="javascript:alert(1)">Open gate</a>')).toBe('<a>Open gate</a>');
    expect(sanitizeInstructionsHtml('<a href=" JaVaScRiPt:alert(1)">Open gate</a>')).toBe('<a>Open gate</a>');
    expect(sanitizeInstructionsHtml('<a href="data:text/html,<script>alert(1)</script>">Map</a>')).toBe('<a>Map</a>');
    expect(sanitizeInstructionsHtml('<a href="//evil.example/">Map</a>')).toBe('<a>Map</a>');
  });

  it('drops frames, forms, styles and attributes outside the list, keeping the text', () => {
    expect(
      sanitizeInstructionsHtml(
        '<iframe src="https://evil.example"></iframe><form action="https://evil.example"><input name="card"></form>Desk',
      ),
    ).toBe('Desk');
    expect(sanitizeInstructionsHtml('<p style="position:fixed;inset:0" class="x" id="login">Desk</p>')).toBe(
      '<p>Desk</p>',
    );
    expect(sanitizeInstructionsHtml('<style>body{display:none}</style><p>Desk</p>')).toBe('<p>Desk</p>');
  });
});
